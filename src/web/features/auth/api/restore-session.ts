import { getConfig } from '../../../lib/config.ts';
import { hasOAuthSignIn } from '../../../lib/tab-storage.ts';
import { restoreGatewaySession } from './gateway-session.ts';

export type RestoreOutcome = 'restored' | 'none';

/**
 * After a reload, memory is empty (SECURITY.md 10). Behind a gateway, its cookie may name a
 * session. In the public-client mode an OAuth sign-in re-runs the authorization request, which the
 * server's login session answers without asking for the password (the page leaves; the promise
 * never settles); a key is never kept, so the sign-in page asks for it again.
 */
export async function restoreSession(returnTo: string): Promise<RestoreOutcome> {
  if (getConfig().gateway) return (await restoreGatewaySession()) ? 'restored' : 'none';
  if (hasOAuthSignIn() && getConfig().oauth) {
    const { startAuthorization } = await import('./oauth.ts');
    return startAuthorization(returnTo);
  }
  return 'none';
}
