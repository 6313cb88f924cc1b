import { startSession } from '../../../lib/session.ts';
import { identityOf } from './identity.ts';
import { probePrincipal } from './probe-principal.ts';

/**
 * Spec §5.1: signs in with an API key sent as a Bearer credential, in the public-client mode. The
 * key lives in this page's memory only (SECURITY.md 10): a reload asks for it again; behind the
 * gateway a session outlives reloads instead. A refused key throws the API's 401.
 */
export async function signInWithKey(key: string): Promise<void> {
  const { global } = await probePrincipal({ kind: 'bearer', token: key });
  startSession(
    { method: 'key', key },
    { method: 'key', global, identity: identityOf('key', global, null) },
  );
}
