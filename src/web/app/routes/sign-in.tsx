import {
  redirect,
  useLocation,
  useNavigate,
  useSearchParams,
  type LoaderFunctionArgs,
} from 'react-router';
import { KeySignInForm } from '../../features/auth/components/key-sign-in-form.tsx';
import { OAuthSignInButton } from '../../features/auth/components/oauth-sign-in-button.tsx';
import { safeReturnPath } from '../../features/auth/return-path.ts';
import { getConfig } from '../../lib/config.ts';
import { getSession, type EndReason } from '../../lib/session.ts';

/**
 * Signed in already: on to where the sign-in was for. Behind a gateway that is also where its
 * OAuth callback lands, with its session cookie set.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const returnTo = safeReturnPath(new URL(request.url).searchParams.get('next'));
  if (getSession().status === 'signed-in') return redirect(returnTo);
  if (getConfig().gateway) {
    const { restoreGatewaySession } = await import('../../features/auth/api/gateway-session.ts');
    if (await restoreGatewaySession()) return redirect(returnTo);
  }
  return null;
}

/** The sign-in page: OAuth first (people), an API key second (scripts' keys, operators). */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const returnTo = safeReturnPath(params.get('next'));
  const ended = (location.state as { ended?: EndReason } | null)?.ended;

  return (
    <main id="main" className="auth-page">
      <title>Sign in · Listkeeper</title>
      <h1>Sign in to Listkeeper</h1>
      {ended === 'signed-out' && (
        <p className="notice" role="status">
          You have signed out.
        </p>
      )}
      <section className="card" aria-labelledby="oauth-heading">
        <h2 id="oauth-heading">With your account</h2>
        <p>
          Sign in on the server&apos;s page with your username and password; the dashboard never
          sees them.
        </p>
        <OAuthSignInButton returnTo={returnTo} />
      </section>
      <section className="card" aria-labelledby="key-heading">
        <h2 id="key-heading">With an API key</h2>
        <KeySignInForm onSignedIn={() => void navigate(returnTo, { replace: true })} />
      </section>
    </main>
  );
}
