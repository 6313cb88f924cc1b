import { PageHeading } from '../../components/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Lists" />
      <p>Mailing lists will be listed here.</p>
    </>
  );
}
