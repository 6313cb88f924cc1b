import { PageHeading } from '../../components/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Messages" />
      <p>Messages will be listed here.</p>
    </>
  );
}
