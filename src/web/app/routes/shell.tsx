import { callerQueries } from '../../lib/caller-queries.ts';
import { getSession } from '../../lib/session.ts';
import { preloadAccountSwitcher } from '../layout/lazy-account-switcher.tsx';
import { queryClient } from '../query-client.ts';

export { AppShell as Component } from '../layout/app-shell.tsx';

/**
 * A global principal's account switcher loads beside the page, not after the first paint. Who is
 * signed in (lib/caller-queries.ts) is read beside the page's own data, so the first paint shows
 * only the pages and actions the principal may use (lib/permissions.ts).
 */
export async function loader() {
  const session = getSession();
  if (session.status === 'signed-in' && session.principal.global) void preloadAccountSwitcher();
  await queryClient.ensureQueryData(callerQueries.self());
  return null;
}
