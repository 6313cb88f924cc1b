import { ApiError } from '../../../../api/errors.ts';
import { getConfig } from '../../../lib/config.ts';
import { forgetSignIn, hasOAuthSignIn, readKeptKey } from '../../../lib/tab-storage.ts';
import { restoreGatewaySession } from './gateway-session.ts';
import { signInWithKey } from './sign-in-with-key.ts';

export type RestoreOutcome = 'restored' | 'none' | 'key-refused';

/**
 * After a reload, memory is empty (SECURITY.md 10). Behind a gateway, its cookie may name a
 * session. Otherwise a key the user chose to keep for this tab signs in again; an OAuth sign-in
 * re-runs the authorization request, which the server's login session answers without asking for
 * the password (the page leaves; the promise never settles).
 */
export async function restoreSession(returnTo: string): Promise<RestoreOutcome> {
  if (getConfig().gateway) return (await restoreGatewaySession()) ? 'restored' : 'none';
  const kept = readKeptKey();
  if (kept !== null) {
    try {
      await signInWithKey(kept, true);
      return 'restored';
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        forgetSignIn();
        return 'key-refused';
      }
      throw error;
    }
  }
  if (hasOAuthSignIn() && getConfig().oauth) {
    const { startAuthorization } = await import('./oauth.ts');
    return startAuthorization(returnTo);
  }
  return 'none';
}
