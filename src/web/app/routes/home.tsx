import { redirect } from 'react-router';
import { callerQueries } from '../../lib/caller-queries.ts';
import { confinedLists, landingSection, openSections, powersOf } from '../../lib/powers.ts';
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
  // A principal confined to some lists (spec §2.6 limit_lists) works in them: it lands on its
  // first list's members, not on an address book it sees only part of.
  const [first] = confinedLists(powers) ?? [];
  if (first !== undefined && openSections(powers).includes('lists') && section === 'contacts') {
    const members = `/${encodeURIComponent(first)}/members`;
    return redirect(`${global ? await defaultAccountPath('lists') : '/lists'}${members}`);
  }
  if (global) return redirect(await defaultAccountPath(section));
  return redirect(`/${section}`);
}

export function Component() {
  return null;
}
