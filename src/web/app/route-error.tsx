import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { describeError } from '../lib/api-error-message.ts';

function ErrorDetails() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : describeError(error);
  return (
    <>
      <title>Something went wrong · Listkeeper</title>
      <h1>Something went wrong</h1>
      <p>{detail}</p>
      <p>
        <Link to="/" reloadDocument>
          Reload the dashboard
        </Link>
      </p>
    </>
  );
}

/** A page's error boundary: the shell (header, navigation) stays usable around it. */
export function RouteError() {
  return (
    <div className="route-error">
      <ErrorDetails />
    </div>
  );
}

/** Last resort outside the shell, e.g. the configuration or a chunk failed to load after a deploy. */
export function RootError() {
  return (
    <main id="main" className="route-error standalone">
      <ErrorDetails />
    </main>
  );
}
