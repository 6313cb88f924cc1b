import { keepKey } from '../../../lib/tab-storage.ts';
import { startSession } from '../../../lib/session.ts';
import { probePrincipal } from './probe-principal.ts';

/**
 * Spec §5.1: signs in with an API key sent as a Bearer credential. The key stays in memory; with
 * `keep` it is also kept in sessionStorage for the tab's life (SECURITY.md 10). A refused key
 * throws the API's 401.
 */
export async function signInWithKey(key: string, keep: boolean): Promise<void> {
  const { global } = await probePrincipal({ kind: 'bearer', token: key });
  startSession(
    { method: 'key', key },
    { method: 'key', global, identity: global ? 'Global API key' : 'API key' },
  );
  if (keep) keepKey(key);
}
