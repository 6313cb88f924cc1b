import type { Refresher } from './refresh.ts';
import type { Session } from './session-store.ts';
import type { Upstream } from './upstream.ts';

/**
 * Sign-out's upstream half (SECURITY.md 25 and 32; issue 28 item 2): the upstream's logout ends
 * its grant and its own sign-in, but only for an access token it still accepts, and a session
 * idle past the token's lifetime holds an expired one. So the token is refreshed first when it is
 * due by the gateway's clock, and once more when the upstream refuses it (its clock decides), then
 * the logout is asked again. Run while the session's row exists: a refresh is stored on it
 * (refresh.ts), so no other request or process sends the same refresh token twice.
 *
 * Best effort: an upstream that does not answer, or has no logout (spec v2 has none), leaves the
 * gateway's own sign-out to stand; its grant then ends only with the upstream's lifetimes.
 */
export async function endUpstreamSignIn(
  session: Session,
  refresher: Refresher,
  upstream: Upstream,
): Promise<void> {
  if (session.credential.method !== 'oauth') return;
  try {
    let current = await refresher.usable(session);
    // A refused refresh: the upstream has ended the grant already.
    if (!current) return;
    if ((await upstream.logout(current.credential)) !== 401) return;
    current = await refresher.usable(current, true);
    if (current) await upstream.logout(current.credential);
  } catch {
    // The upstream cannot be reached: nothing more can be done from here.
  }
}
