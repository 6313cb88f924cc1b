import { useState } from 'react';
import { describeError } from '../../../lib/api-error-message.ts';
import { getConfig } from '../../../lib/config.ts';

/**
 * Starts the OAuth authorization code flow (spec §5.2) against the configured server. Without
 * OAuth in `/config.json`, says why instead; key sign-in still works.
 */
export function OAuthSignInButton({ returnTo }: { returnTo: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const config = getConfig();

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
