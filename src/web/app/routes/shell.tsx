import { getSession } from '../../lib/session.ts';
import { preloadAccountSwitcher } from '../layout/lazy-account-switcher.tsx';

export { AppShell as Component } from '../layout/app-shell.tsx';

/** A global principal's account switcher loads beside the page, not after the first paint. */
export function loader() {
  const session = getSession();
  if (session.status === 'signed-in' && session.principal.global) void preloadAccountSwitcher();
  return null;
}
