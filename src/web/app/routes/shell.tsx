import { callerQueries } from '../../lib/caller-queries.ts';
import { queryClient } from '../query-client.ts';

export { AppShell as Component } from '../layout/app-shell.tsx';

/**
 * Who is signed in (lib/caller-queries.ts) is read beside the page's own data, so the first paint
 * shows only the pages and actions the principal may use (lib/permissions.ts).
 */
export async function loader() {
  await queryClient.ensureQueryData(callerQueries.self());
  return null;
}
