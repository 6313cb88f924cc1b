import { PageHeading } from '../../components/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Accounts" />
      <p>Accounts will be listed here.</p>
    </>
  );
}
