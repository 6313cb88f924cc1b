import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../../api/errors.ts';
import { describeError } from '../../../lib/api-error-message.ts';
import { getConfig } from '../../../lib/config.ts';

/**
 * "Sign in with an API key" (spec §5.1). Behind a gateway, the key goes to the gateway once and
 * the page keeps nothing; in the public-client mode it lives in page memory only (SECURITY.md 10),
 * never in storage. The API client loads on submit only, so the sign-in page stays light.
 */
export function KeySignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const gateway = getConfig().gateway !== undefined;
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const keyId = useId();
  const hintId = useId();
  const errorId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = data.get('key');
    const key = typeof value === 'string' ? value.trim() : '';
    if (key === '') {
      setError('Enter an API key.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      if (gateway) {
        const { signInWithKeyAtGateway } = await import('../api/gateway-session.ts');
        await signInWithKeyAtGateway(key);
      } else {
        const { signInWithKey } = await import('../api/sign-in-with-key.ts');
        await signInWithKey(key);
      }
      onSignedIn();
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.status === 401
          ? 'The server refused this key: it is unknown, expired, or not allowed from this address.'
          : describeError(caught),
      );
      setPending(false);
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {/* Written out, not the form kit's FormField: the sign-in page loads before the shell,
          and FormField's chunk (vite.config.ts, page-kit) reads the shell's permissions. */}
      <div className="field">
        <label htmlFor={keyId}>API key</label>
        <input
          id={keyId}
          name="key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          aria-invalid={error !== null}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        />
      </div>
      <p id={hintId} className="hint">
        {gateway
          ? 'The dashboard’s server keeps the key until you sign out; this browser never holds it.'
          : 'The key lives in this page’s memory only: a reload asks for it again.'}
      </p>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in with the key'}
        </button>
      </div>
    </form>
  );
}
