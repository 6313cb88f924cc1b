import { Link } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { ImportContacts } from '../../features/contacts/components/import-contacts.tsx';
import { useAccountId } from '../../lib/account-scope.ts';

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <p className="breadcrumb">
        <Link to=".." relative="path">
          All contacts
        </Link>
      </p>
      <PageHeading title="Import contacts" />
      <ImportContacts key={accountId} accountId={accountId} />
    </>
  );
}
