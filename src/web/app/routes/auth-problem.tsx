import { Link, useParams } from 'react-router';

const problems: Record<string, { title: string; text: string }> = {
  'consent-denied': {
    title: 'Access was not granted',
    text: 'The sign-in ended without access to your account: it was declined at the consent step, or your permissions allow the dashboard nothing. You are not signed in.',
  },
  'sign-in-failed': {
    title: 'Sign-in failed',
    text: 'The sign-in could not be completed: it took too long, was already used, was started in another browser, or the server refused it. You are not signed in.',
  },
  'session-expired': {
    title: 'Your session has expired',
    text: 'The server no longer accepts this sign-in (it expired or was ended elsewhere). Sign in again to continue.',
  },
  'key-refused': {
    title: 'The API key was refused',
    text: 'The server no longer accepts this key: it may have been deleted, have expired, or be restricted to other IP addresses. Sign in with a valid key.',
  },
};

/** Why the user is not (or no longer) signed in: one page per reason. */
export function Component() {
  const { problem = '' } = useParams();
  const found = problems[problem];
  const title = found?.title ?? 'Page not found';
  return (
    <main id="main" className="auth-page">
      <title>{`${title} · Listkeeper`}</title>
      <h1>{title}</h1>
      <p>{found?.text ?? 'There is nothing at this address.'}</p>
      <p>
        <Link to="/sign-in" className="button primary">
          Sign in
        </Link>
      </p>
    </main>
  );
}
