import { redirect } from 'react-router';
import { callerQueries } from '../../lib/caller-queries.ts';
import { landingSection, powersOf } from '../../lib/powers.ts';
import { getSession } from '../../lib/session.ts';
import { defaultAccountPath } from '../default-account.ts';
import { queryClient } from '../query-client.ts';

/**
 * `/`: the first section the principal may open (contacts when all or nothing is known); a
 * global principal goes to it in an account, an account key to its own.
 */
export async function loader() {
  const session = getSession();
  const global = session.status === 'signed-in' && session.principal.global;
  const powers = powersOf(await queryClient.ensureQueryData(callerQueries.self()), global);
  const section = landingSection(powers);
  if (section === undefined) return redirect(global ? '/accounts' : '/contacts');
  if (global) return redirect(await defaultAccountPath(section));
  return redirect(`/${section}`);
}

export function Component() {
  return null;
}
