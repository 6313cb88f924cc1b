import type { Kysely } from 'kysely';
import { listLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { forbidden } from '../http/http-error.ts';
import { listNamesOfContact } from '../repositories/memberships.repository.ts';

/**
 * Spec §2.6 limit_lists: to a limited key the lists outside its limit do not exist (SECURITY.md 33:
 * every path answers for them as for a missing list, and no answer names one).
 */
export function isListVisible(principal: Principal, name: string): boolean {
  const allowed = listLimit(principal);
  return allowed === null || allowed.has(name);
}

/**
 * Changing or deleting a contact, or its addresses, reaches every list it is on (a new or resumed
 * address gets their mail): a list-limited key may do it only when all of them are its own (§2.6).
 */
export async function assertContactManageable(
  db: Kysely<Database>,
  principal: Principal,
  contactId: number,
): Promise<void> {
  if (listLimit(principal) === null) return;
  const names = await listNamesOfContact(db, contactId);
  // The lists are not named: they are hidden from this key (SECURITY.md 33).
  if (!names.every((name) => isListVisible(principal, name)))
    throw forbidden(
      'This key is limited to some lists (limit_lists): this contact is also on others',
    );
}
