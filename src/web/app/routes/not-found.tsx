import { Link } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Page not found" />
      <p>
        There is nothing at this address. <Link to="/">Go to the dashboard</Link>.
      </p>
    </>
  );
}
