import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The list an SMTP recipient names, `<name>@<the account's domain>`, with its account. Mail
 * programs keep the case a person typed (`Team@…` for the list `team`): the list whose name
 * matches exactly, else the only one whose name matches in any case (names are unique as typed).
 */
export async function findListByAddress(db: Kysely<Database>, name: string, domain: string) {
  const found = await db
    .selectFrom('lists')
    .innerJoin('accounts', 'accounts.id', 'lists.account_id')
    .select([
      'lists.id',
      'lists.name',
      'lists.settings',
      'lists.account_id',
      'accounts.domain',
      'accounts.settings as account_settings',
    ])
    .where(sql<string>`lower(accounts.domain)`, '=', domain.toLowerCase())
    .where(sql<string>`lower(lists.name)`, '=', name.toLowerCase())
    .execute();
  return found.find((list) => list.name === name) ?? (found.length === 1 ? found[0] : undefined);
}

/** The account whose domain (spec §2.7) this is, any case: postmaster@ it reaches its superadmins. */
export function findAccountByDomain(db: Kysely<Database>, domain: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'domain'])
    .where(sql<string>`lower(domain)`, '=', domain.toLowerCase())
    .executeTakeFirst();
}

/**
 * What the posting policy needs to know of a sender (spec §2.4 restrictions): whether the address
 * is a contact's of the account, and the lists that contact is a member of.
 */
export async function senderKnowledge(
  db: Kysely<Database>,
  accountId: number,
  address: string,
): Promise<{ contact: boolean; lists: string[] }> {
  const email = await db
    .selectFrom('emails')
    .select('contact_id')
    .where('account_id', '=', accountId)
    .where('email_key', '=', address.trim().toLowerCase())
    .executeTakeFirst();
  if (!email) return { contact: false, lists: [] };
  const lists = await db
    .selectFrom('memberships')
    .innerJoin('lists', 'lists.id', 'memberships.list_id')
    .select('lists.name')
    .where('memberships.contact_id', '=', email.contact_id)
    .execute();
  return { contact: true, lists: lists.map((row) => row.name) };
}

/** The addresses of one contact (a new membership's welcome goes to each). */
export async function addressesOfContact(
  db: Kysely<Database>,
  contactId: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('emails')
    .select('email')
    .where('contact_id', '=', contactId)
    .execute();
  return rows.map((row) => row.email);
}

/** The lists among `listIds` with their settings (a welcome message is among them). */
export function listsWithSettings(
  db: Kysely<Database>,
  accountId: number,
  listIds: readonly number[],
) {
  if (listIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('lists')
    .select(['id', 'name', 'settings'])
    .where('account_id', '=', accountId)
    .where('id', 'in', listIds)
    .execute();
}
