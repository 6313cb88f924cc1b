import { redirect, type MiddlewareFunction } from 'react-router';
import { sectionOf } from '../lib/account-scope.ts';
import { loadConfig } from '../lib/config.ts';
import { getSession } from '../lib/session.ts';

/** Every route needs `/config.json` (API base URL, OAuth client) before it runs. */
export const loadConfiguration: MiddlewareFunction = async () => {
  await loadConfig();
};

/** The session restore of `requireSession`, for a page that will need it. */
const loadRestore = () => import('../features/auth/api/restore-session.ts');

/**
 * A reload of a signed-in page restores its session before anything else: its code loads beside
 * `/config.json` rather than after it, one round trip sooner (issue 17 item 9, Lighthouse).
 */
export function preloadSessionRestore(pathname: string): void {
  // A chunk that cannot load is reported by `requireSession`, which asks for it again.
  if (!/^\/(?:sign-in|auth\/)/.test(pathname)) loadRestore().catch(() => undefined);
}

/**
 * The signed-in shell: without a session in memory, restore it (the gateway's session, or OAuth
 * re-authorization after a reload), else go to the sign-in page and come back afterwards.
 */
export const requireSession: MiddlewareFunction = async ({ request }) => {
  if (getSession().status === 'signed-in') return;
  const url = new URL(request.url);
  const returnTo = `${url.pathname}${url.search}`;
  const { restoreSession } = await loadRestore();
  const outcome = await restoreSession(returnTo);
  if (outcome === 'restored') return;
  throw redirect(returnTo === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(returnTo)}`);
};

function isGlobal(): boolean {
  const session = getSession();
  return session.status === 'signed-in' && session.principal.global;
}

/** `/a/:accountId/…` is for global principals; an account key has one account: drop it from the URL. */
export const requireGlobal: MiddlewareFunction = ({ request }) => {
  if (isGlobal()) return;
  const pathname = new URL(request.url).pathname;
  throw redirect(pathname.replace(/^\/a\/[^/]+/, '') || '/');
};

/**
 * The accounts of a group (spec §4.7): switching and creating them is an operator's (a global
 * principal); an account's own principal finds its account's settings at `/account`.
 */
export const requireGlobalForAccounts: MiddlewareFunction = () => {
  if (!isGlobal()) throw redirect('/account');
};

/** `/account` is an account's own principal's; an operator has the accounts page. */
export const requireAccountPrincipal: MiddlewareFunction = () => {
  if (isGlobal()) throw redirect('/accounts');
};

/** `/contacts` and friends without an account: a global principal is sent to an account's page. */
export const requireOwnAccount: MiddlewareFunction = async ({ request }) => {
  if (!isGlobal()) return;
  const { defaultAccountPath } = await import('./default-account.ts');
  throw redirect(await defaultAccountPath(sectionOf(new URL(request.url).pathname) ?? 'contacts'));
};
