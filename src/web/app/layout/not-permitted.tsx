import { PageHeading } from '../../components/page-heading.tsx';
import type { Section } from '../../lib/account-scope.ts';
import { SECTION_OPERATIONS, permissionsFor } from '../../lib/powers.ts';

const TITLES: Record<Section, string> = {
  contacts: 'Contacts',
  lists: 'Lists',
  messages: 'Messages',
  held: 'Held messages',
  requests: 'Requests to join and leave',
  administrators: 'Administrators',
};

/** In place of a page the principal may not open (an old link, a typed address). */
export function NotPermitted({ section }: { section: Section }) {
  return (
    <>
      <PageHeading title={TITLES[section]} />
      <p role="alert" className="error-message">
        Not permitted: this page needs the {permissionsFor(SECTION_OPERATIONS[section])} permission,
        which your sign-in does not have. An administrator with superadmin can give it.
      </p>
    </>
  );
}
