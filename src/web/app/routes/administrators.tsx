import { PageHeading } from '../../components/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Administrators" />
      <p>Administrators will be listed here.</p>
    </>
  );
}
