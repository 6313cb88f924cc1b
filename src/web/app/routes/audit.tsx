import { useLocation } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { AuditPage } from '../../features/audit/components/audit-page.tsx';
import { useAccountId } from '../../lib/account-scope.ts';

/** `/audit`, `/a/:accountId/audit`, and the group's `/accounts/audit` (global principals). */
export function Component() {
  const accountId = useAccountId();
  const group = useLocation().pathname.startsWith('/accounts/');
  return (
    <>
      <PageHeading title={group ? 'Audit log of the group' : 'Audit log'} />
      <AuditPage
        key={`${accountId ?? ''}${group ? ' group' : ''}`}
        accountId={accountId}
        group={group}
      />
    </>
  );
}
