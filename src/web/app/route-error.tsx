import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Last-resort boundary, e.g. a page chunk that failed to load after a deploy. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main id="main" className="route-error">
      <title>Something went wrong · Listkeeper</title>
      <h1>Something went wrong</h1>
      <p>{detail}</p>
      <p>
        <Link to="/" reloadDocument>
          Reload the dashboard
        </Link>
      </p>
    </main>
  );
}
