import { PageHeading } from '../../components/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Contacts" />
      <p>Contacts will be listed here.</p>
    </>
  );
}
