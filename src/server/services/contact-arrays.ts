import type { Kysely } from 'kysely';
import { listLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { badRequest } from '../http/http-error.ts';
import { welcomeNewMember } from '../mail/welcome.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import type { ContactWithChildren } from '../repositories/contacts.repository.ts';
import {
  deleteEmailsByIds,
  emailKey,
  insertEmails,
  updateEmail as updateEmailRow,
} from '../repositories/emails.repository.ts';
import {
  deleteMembershipsByIds,
  findListsByNames,
  insertMemberships,
} from '../repositories/memberships.repository.ts';
import { isListVisible } from './contact-access.ts';
import { assertAddressesAllowed, assertAddressesFree } from './contact-address-rules.ts';

/* The arrays of a contact write (`emails`, `lists`): each value once; a PUT sets each as a whole. */

/** A value given twice (an address in any case, spec §2.2) is refused. */
export function uniqueOrThrow(
  values: readonly string[],
  field: string,
  key: (value: string) => string = (v) => v,
): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(key(value))) throw badRequest(`${field}: ${value} is given twice`);
    seen.add(key(value));
  }
  return [...values];
}

/**
 * `emails` in a PUT sets the contact's addresses, as repeated `permissions` set an administrator's
 * (spec §4.6): an address that stays (in any case) keeps its id and settings, the others are
 * deleted, new ones are added under the same rules as POST /emails/. The schema keeps at least one.
 */
export async function replaceAddresses(
  db: Kysely<Database>,
  account: AccountRow,
  contact: ContactWithChildren,
  requested: readonly string[],
): Promise<void> {
  const wanted = uniqueOrThrow(requested, 'emails', emailKey);
  const current = new Map(contact.emails.map((email) => [emailKey(email.email), email]));
  const wantedKeys = new Set(wanted.map(emailKey));
  const added = wanted.filter((address) => !current.has(emailKey(address)));
  assertAddressesAllowed(account, added);
  await assertAddressesFree(db, account, added);
  await deleteEmailsByIds(
    db,
    account.id,
    contact.emails
      .filter((email) => !wantedKeys.has(emailKey(email.email)))
      .map((email) => email.id),
  );
  for (const address of wanted) {
    // The same address spelled otherwise (spec §2.2 ignores case) is kept, spelled as sent.
    const kept = current.get(emailKey(address));
    if (kept && kept.email !== address)
      await updateEmailRow(db, account.id, kept.id, { email: address });
  }
  await addAddresses(db, account, contact.row.id, added);
}

/** Gives the contact these addresses (checked by the caller: allowed, free, each once). */
export async function addAddresses(
  db: Kysely<Database>,
  account: AccountRow,
  contactId: number,
  addresses: readonly string[],
): Promise<void> {
  await insertEmails(
    db,
    addresses.map((email) => ({
      account_id: account.id,
      contact_id: contactId,
      email,
      email_key: emailKey(email),
    })),
  );
}

/**
 * `lists` in a PUT sets the contact's memberships: one on a list that stays keeps its id and digest,
 * the others are deleted, new ones are added. A list-limited key (spec §2.6) changes only the
 * memberships of its own lists; those it cannot see are not its to keep or remove.
 */
export async function replaceMemberships(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  contact: ContactWithChildren,
  requested: readonly string[],
  now: Date,
): Promise<void> {
  const wanted = uniqueOrThrow(requested, 'lists');
  const visible = listLimit(principal);
  const current = contact.memberships.filter(
    (membership) => visible === null || visible.has(membership.list_name),
  );
  const currentNames = new Set(current.map((membership) => membership.list_name));
  const wantedNames = new Set(wanted);
  const added = wanted.filter((name) => !currentNames.has(name));
  const addedIds = await visibleListIds(db, account, principal, added);
  await deleteMembershipsByIds(
    db,
    account.id,
    current.filter((membership) => !wantedNames.has(membership.list_name)).map((m) => m.id),
  );
  await joinLists(db, account, contact.row.id, addedIds, now);
}

/**
 * The ids of the named lists, in the order named. A list hidden from a list-limited key is as
 * unknown as a missing one (spec §2.6, SECURITY.md 33).
 */
export async function visibleListIds(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  names: readonly string[],
): Promise<number[]> {
  const found = new Map(
    (await findListsByNames(db, account.id, names)).map((list) => [list.name, list.id]),
  );
  const unknownLists = names.filter((name) => !found.has(name) || !isListVisible(principal, name));
  if (unknownLists.length > 0) {
    throw badRequest(
      `Unknown list${unknownLists.length > 1 ? 's' : ''}: ${unknownLists.join(', ')}`,
    );
  }
  return names.map((name) => found.get(name) as number);
}

/**
 * Adds the contact to these lists, in the order given (so its `lists` reads back the same way),
 * and welcomes it to them.
 */
export async function joinLists(
  db: Kysely<Database>,
  account: AccountRow,
  contactId: number,
  listIds: readonly number[],
  now: Date,
): Promise<void> {
  await insertMemberships(
    db,
    listIds.map((listId) => ({
      account_id: account.id,
      contact_id: contactId,
      list_id: listId,
      digest: null,
    })),
  );
  await welcomeNewMember(db, account, contactId, listIds, now);
}
