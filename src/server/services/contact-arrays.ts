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
  await insertEmails(
    db,
    added.map((email) => ({
      account_id: account.id,
      contact_id: contact.row.id,
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
): Promise<void> {
  const wanted = uniqueOrThrow(requested, 'lists');
  const visible = listLimit(principal);
  const current = contact.memberships.filter(
    (membership) => visible === null || visible.has(membership.list_name),
  );
  const currentNames = new Set(current.map((membership) => membership.list_name));
  const wantedNames = new Set(wanted);
  const added = wanted.filter((name) => !currentNames.has(name));
  const found = new Map(
    (await findListsByNames(db, account.id, added)).map((list) => [list.name, list.id]),
  );
  // A list hidden from a list-limited key is as unknown as a missing one (spec §2.6, SECURITY.md 33).
  const unknownLists = added.filter((name) => !found.has(name) || !isListVisible(principal, name));
  if (unknownLists.length > 0) {
    throw badRequest(
      `Unknown list${unknownLists.length > 1 ? 's' : ''}: ${unknownLists.join(', ')}`,
    );
  }
  await deleteMembershipsByIds(
    db,
    account.id,
    current.filter((membership) => !wantedNames.has(membership.list_name)).map((m) => m.id),
  );
  await insertMemberships(
    db,
    added.map((name) => ({
      account_id: account.id,
      contact_id: contact.row.id,
      list_id: found.get(name) as number,
      digest: null,
    })),
  );
  await welcomeNewMember(
    db,
    account,
    contact.row.id,
    added.map((name) => found.get(name) as number),
  );
}
