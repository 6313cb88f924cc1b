import { endSession, getCredentials } from '../../../lib/session.ts';

/**
 * Signs out. A gateway's session, or an OAuth session at the server (its login cookie and grant),
 * is ended there first; then memory and the tab forget the credentials; the router then shows the
 * sign-in page.
 */
export async function signOut(): Promise<void> {
  const credentials = getCredentials();
  if (credentials?.method === 'gateway') {
    const { signOutAtGateway } = await import('./gateway-session.ts');
    await signOutAtGateway();
  }
  if (credentials?.method === 'oauth') {
    const accessToken = await credentials.keeper.accessToken().catch(() => null);
    if (accessToken !== null) {
      const { endServerSession } = await import('./oauth.ts');
      await endServerSession(accessToken);
    }
  }
  endSession('signed-out');
}
