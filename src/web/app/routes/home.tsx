import { PageHeading } from '../../components/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Overview" />
      <p>Manage the contacts, lists, messages and administrators of your mailing-list accounts.</p>
    </>
  );
}
