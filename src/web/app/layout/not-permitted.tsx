import { PageHeading } from '../../components/page-heading.tsx';
import { SECTION_TITLES, type Section } from '../../lib/account-scope.ts';
import { SECTION_OPERATIONS, permissionsFor } from '../../lib/powers.ts';

/** In place of a page the principal may not open (an old link, a typed address). */
export function NotPermitted({ section }: { section: Section }) {
  return (
    <>
      <PageHeading title={SECTION_TITLES[section]} />
      <p role="alert" className="error-message">
        Not permitted: this page needs the {permissionsFor(SECTION_OPERATIONS[section])} permission,
        which your sign-in does not have. An administrator with superadmin can give it.
      </p>
    </>
  );
}
