import { redirect } from 'react-router';
import { getSession } from '../../lib/session.ts';
import { defaultAccountPath } from '../default-account.ts';

/** `/`: a global principal goes to an account's contacts, an account key to its own. */
export async function loader() {
  const session = getSession();
  if (session.status === 'signed-in' && session.principal.global)
    return redirect(await defaultAccountPath('contacts'));
  return redirect('/contacts');
}

export function Component() {
  return null;
}
