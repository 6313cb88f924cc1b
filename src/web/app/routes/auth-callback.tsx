import { Link, replace, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { describeError } from '../../lib/api-error-message.ts';
import { getSession } from '../../lib/session.ts';

/**
 * `/auth/callback`: the OAuth redirect URI. Runs in the loader, before anything renders, and only
 * once per navigation; `replace` takes the code out of the history.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // Back-button visit to a used callback while signed in: nothing to redeem.
  if (getSession().status === 'signed-in') return replace('/');
  const { ConsentDeniedError } = await import('../../features/auth/api/oauth.ts');
  const { completeOAuthSignIn } = await import('../../features/auth/api/oauth-sign-in.ts');
  try {
    return replace(await completeOAuthSignIn(new URL(request.url)));
  } catch (error) {
    if (error instanceof ConsentDeniedError) return replace('/auth/consent-denied');
    return { message: describeError(error) };
  }
}

export function Component() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="auth-page">
      <title>Sign-in failed · Listkeeper</title>
      <h1>Sign-in failed</h1>
      <p>{message}</p>
      <p>
        <Link to="/sign-in" replace>
          Back to the sign-in page
        </Link>
      </p>
    </main>
  );
}
