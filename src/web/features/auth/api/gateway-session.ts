import { GATEWAY_PATHS, type GatewaySession } from '../../../../api/gateway.ts';
import { ApiError } from '../../../../api/errors.ts';
import { fetchThroughGateway } from '../../../lib/gateway-fetch.ts';
import { startSession, type Principal } from '../../../lib/session.ts';
import { identityOf } from './identity.ts';

/**
 * Signing in behind a gateway (`listkeeper dashboard`): the gateway holds the key or the tokens
 * and answers who is signed in; the page keeps only that answer (SECURITY.md 10). Plain fetch,
 * no API client: the sign-in page stays light.
 */
function principalOf(session: Extract<GatewaySession, { signed_in: true }>): Principal {
  const identity = identityOf(session.method, session.global, session.username);
  return {
    method: session.method,
    global: session.global,
    identity,
    server: session.upstream_name,
  };
}

async function answerOf(response: Response): Promise<unknown> {
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return body;
  const message =
    body !== null &&
    typeof body === 'object' &&
    typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : `The dashboard's server answered ${response.status}.`;
  throw new ApiError(response.status, message);
}

function adopt(body: unknown): boolean {
  const session = body as GatewaySession | null;
  if (session?.signed_in !== true) return false;
  startSession({ method: 'gateway' }, principalOf(session));
  return true;
}

/** After a load, a reload, in a new tab: the gateway's cookie may already name a session. */
export async function restoreGatewaySession(): Promise<boolean> {
  return adopt(await answerOf(await fetchThroughGateway(GATEWAY_PATHS.session)));
}

/** Spec §5.1: the key goes to the gateway once, which checks it with the upstream and keeps it. */
export async function signInWithKeyAtGateway(key: string): Promise<void> {
  const response = await fetchThroughGateway(GATEWAY_PATHS.key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
  });
  if (!adopt(await answerOf(response)))
    throw new ApiError(500, 'The sign-in did not start a session.');
}

/** Ends the session at the gateway: every tab, every gateway process. */
export async function signOutAtGateway(): Promise<void> {
  try {
    const response = await fetchThroughGateway(GATEWAY_PATHS.logout, { method: 'POST' });
    await response.body?.cancel();
  } catch {
    // Unreachable gateway: this tab forgets the session anyway; the cookie ends with its lifetime.
  }
}
