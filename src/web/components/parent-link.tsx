import { Link } from 'react-router';

/**
 * The way up from a page to the page that lists it ("All messages"), above its heading; `search`
 * brings the list back as it was left (its page, order, filter).
 */
export function ParentLink({ label, search = '' }: { label: string; search?: string }) {
  return (
    <p className="breadcrumb">
      <Link to={{ pathname: '..', search }} relative="path">
        {label}
      </Link>
    </p>
  );
}
