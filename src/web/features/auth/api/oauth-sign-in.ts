import { endSession, startSession } from '../../../lib/session.ts';
import { markOAuthSignIn } from '../../../lib/tab-storage.ts';
import { createTokenKeeper } from '../../../lib/token-keeper.ts';
import { identityOf } from './identity.ts';
import { completeAuthorization, refreshTokens } from './oauth.ts';
import { probePrincipal } from './probe-principal.ts';

/**
 * Finishes an OAuth sign-in on `/auth/callback`: redeems the code, starts the session with the
 * tokens in memory, and notes (not the tokens: only the fact) that a reload should re-authorize.
 * Returns the path to resume at.
 */
export async function completeOAuthSignIn(callbackUrl: URL): Promise<string> {
  const { tokens, username, returnTo } = await completeAuthorization(callbackUrl);
  const keeper = createTokenKeeper({
    tokens,
    refresh: refreshTokens,
    onLost: () => endSession('session-expired'),
  });
  try {
    const { global } = await probePrincipal({ kind: 'bearer', token: tokens.accessToken });
    startSession(
      { method: 'oauth', keeper },
      { method: 'oauth', global, identity: identityOf('oauth', global, username) },
    );
  } catch (error) {
    keeper.stop();
    throw error;
  }
  markOAuthSignIn();
  return returnTo;
}
