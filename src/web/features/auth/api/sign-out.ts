import { endSession, getCredentials } from '../../../lib/session.ts';

/**
 * Signs out. An OAuth session is ended at the server first (its login cookie and grant), then memory
 * and the tab forget the credentials; the router then shows the sign-in page.
 */
export async function signOut(): Promise<void> {
  const credentials = getCredentials();
  if (credentials?.method === 'oauth') {
    const accessToken = await credentials.keeper.accessToken().catch(() => null);
    if (accessToken !== null) {
      const { endServerSession } = await import('./oauth.ts');
      await endServerSession(accessToken);
    }
  }
  endSession('signed-out');
}
