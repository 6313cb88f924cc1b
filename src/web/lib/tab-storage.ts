/**
 * Everything the dashboard keeps in sessionStorage (the tab's life), by name, in one place.
 * SECURITY.md 10: never a token, never an API key; only how to sign in again.
 */
/** Not a secret: tells a reload to re-run the OAuth authorization request. */
const OAUTH_SIGNED_IN = 'listkeeper.oauth-signed-in';
/** PKCE verifier, state and return path of the authorization request in flight; single use. */
const OAUTH_REQUEST = 'listkeeper.oauth-request';

export interface PendingAuthorization {
  state: string;
  codeVerifier: string;
  returnTo: string;
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Storage can be disabled by the browser's settings; the dashboard still works without it.
    return null;
  }
}

export function hasOAuthSignIn(): boolean {
  return storage()?.getItem(OAUTH_SIGNED_IN) === '1';
}

export function markOAuthSignIn(): void {
  storage()?.setItem(OAUTH_SIGNED_IN, '1');
}

export function savePendingAuthorization(request: PendingAuthorization): void {
  storage()?.setItem(OAUTH_REQUEST, JSON.stringify(request));
}

/** Reads and removes the pending request: a state and its verifier are used once (SECURITY.md 9). */
export function takePendingAuthorization(): PendingAuthorization | null {
  const store = storage();
  const text = store?.getItem(OAUTH_REQUEST) ?? null;
  store?.removeItem(OAUTH_REQUEST);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<PendingAuthorization>;
    if (
      typeof value.state === 'string' &&
      typeof value.codeVerifier === 'string' &&
      typeof value.returnTo === 'string'
    ) {
      return { state: value.state, codeVerifier: value.codeVerifier, returnTo: value.returnTo };
    }
  } catch {
    // Unreadable: treated as no request.
  }
  return null;
}

/** On sign-out or any end of the session: the tab forgets how it was signed in. */
export function forgetSignIn(): void {
  const store = storage();
  store?.removeItem(OAUTH_SIGNED_IN);
}
