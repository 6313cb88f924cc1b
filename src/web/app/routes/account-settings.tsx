import { PageHeading } from '../../components/page-heading.tsx';
import { OwnAccountSettings } from '../../features/accounts/components/own-account-settings.tsx';

/** `/account`: the signed-in account's own settings (spec §2.7), for its superadmin. */
export function Component() {
  return (
    <>
      <PageHeading title="Account settings" />
      <OwnAccountSettings />
    </>
  );
}
