import { useState } from 'react';
import { describeError } from '../../../lib/api-error-message.ts';
import { GATEWAY_PATHS } from '../../../../api/gateway.ts';
import { getConfig } from '../../../lib/config.ts';

/**
 * Starts the OAuth authorization code flow (spec §5.2) against the configured server, or through
 * the gateway that serves the page. Without OAuth, says why instead; key sign-in still works.
 */
export function OAuthSignInButton({ returnTo }: { returnTo: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const config = getConfig();

  if (config.gateway) {
    if (!config.gateway.oauth) {
      return (
        <p className="notice" role="note">
          This dashboard has no OAuth client for {config.gateway.upstreamName}. Sign in with an API
          key instead.
        </p>
      );
    }
    return (
      <a className="button primary" href={`${GATEWAY_PATHS.login}?next=${encodeURIComponent(returnTo)}`}>
        Sign in with your account at {config.gateway.upstreamName}
      </a>
    );
  }

  if (!config.oauth) {
    return (
      <p className="notice" role="note">
        {config.problem ?? 'OAuth sign-in is unavailable.'} Sign in with an API key instead.
      </p>
    );
  }

  async function start() {
    setPending(true);
    setError(null);
    try {
      const { startAuthorization } = await import('../api/oauth.ts');
      await startAuthorization(returnTo);
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className="button primary"
        onClick={() => void start()}
        disabled={pending}
      >
        {pending ? 'Opening the sign-in page…' : 'Sign in with your Listkeeper account'}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
