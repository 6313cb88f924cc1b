import { Link } from 'react-router';

/** The way up from a page to the page that lists it ("All messages"), above its heading. */
export function ParentLink({ label }: { label: string }) {
  return (
    <p className="breadcrumb">
      <Link to=".." relative="path">
        {label}
      </Link>
    </p>
  );
}
