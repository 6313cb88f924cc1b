import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { AccountsTable, Database } from '../db/schema.ts';

export type AccountRow = Selectable<AccountsTable>;

export function findAccountById(db: Kysely<Database>, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAccountByName(db: Kysely<Database>, name: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Spec §4.7 filters: accounts holding that list, that standard user, or an API key with that description. */
export interface AccountFilters {
  listname?: string | undefined;
  username?: string | undefined;
  description?: string | undefined;
}

function filteredAccounts(db: Kysely<Database>, filters: AccountFilters) {
  let query = db.selectFrom('accounts').selectAll('accounts');
  const { listname, username, description } = filters;
  if (listname !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb.selectFrom('lists').select('lists.id').whereRef('lists.account_id', '=', 'accounts.id').where('lists.name', '=', listname),
      ),
    );
  }
  if (username !== undefined) {
    // Standard users only (api 0); usernames are email addresses, compared without regard to case.
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('administrators')
          .select('administrators.id')
          .whereRef('administrators.account_id', '=', 'accounts.id')
          .where('administrators.api', '=', 0)
          .where((sub) => sub(sub.fn('lower', ['administrators.username']), '=', username.toLowerCase())),
      ),
    );
  }
  if (description !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('administrators')
          .select('administrators.id')
          .whereRef('administrators.account_id', '=', 'accounts.id')
          .where('administrators.api', '!=', 0)
          .where('administrators.description', '=', description),
      ),
    );
  }
  return query;
}

export function selectAccounts(
  db: Kysely<Database>,
  filters: AccountFilters,
  page: { offset: number; limit: number },
): Promise<AccountRow[]> {
  return filteredAccounts(db, filters).orderBy('accounts.id').limit(page.limit).offset(page.offset).execute();
}

/** How many accounts the group has. */
export async function countAccounts(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findFilteredAccount(db: Kysely<Database>, id: number, filters: AccountFilters): Promise<AccountRow | undefined> {
  return filteredAccounts(db, filters).where('accounts.id', '=', id).executeTakeFirst();
}

/** The list names of each account, in one query. */
export async function listNamesOfAccounts(db: Kysely<Database>, accountIds: readonly number[]): Promise<Map<number, string[]>> {
  const names = new Map<number, string[]>(accountIds.map((id) => [id, []]));
  if (accountIds.length === 0) return names;
  const rows = await db
    .selectFrom('lists')
    .select(['account_id', 'name'])
    .where('account_id', 'in', accountIds)
    .orderBy('account_id')
    .orderBy('name')
    .execute();
  for (const row of rows) names.get(row.account_id)?.push(row.name);
  return names;
}

/** The standard users (api 0) of each account, reduced to id and username (spec §2.7 `users`). */
export async function standardUsersOfAccounts(
  db: Kysely<Database>,
  accountIds: readonly number[],
): Promise<Map<number, { id: number; username: string | null }[]>> {
  const users = new Map<number, { id: number; username: string | null }[]>(accountIds.map((id) => [id, []]));
  if (accountIds.length === 0) return users;
  const rows = await db
    .selectFrom('administrators')
    .select(['id', 'account_id', 'username'])
    .where('account_id', 'in', accountIds)
    .where('api', '=', 0)
    .orderBy('id')
    .execute();
  for (const row of rows) if (row.account_id !== null) users.get(row.account_id)?.push({ id: row.id, username: row.username });
  return users;
}

export function insertAccount(db: Kysely<Database>, values: Insertable<AccountsTable>): Promise<AccountRow> {
  return db.insertInto('accounts').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateAccountRow(db: Kysely<Database>, id: number, values: Updateable<AccountsTable>): Promise<AccountRow> {
  return db.updateTable('accounts').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Everything of the account goes with it through the foreign keys; its rate counters are dropped too. */
export async function deleteAccountRow(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('accounts').where('id', '=', id).execute();
  await db.deleteFrom('rate_counters').where('account_id', '=', id).execute();
}

/**
 * Contacts of the account without a ccid, counted up to `upTo` (none may be left when ccid is
 * enabled, spec §2.1): the count stops there, so it reads at most that many index entries however
 * large the address book (SECURITY.md 29).
 */
export async function countContactsWithoutCcid(db: Kysely<Database>, accountId: number, upTo: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('contacts')
        .select('id')
        .where('account_id', '=', accountId)
        .where('ccid', 'is', null)
        .limit(upTo)
        .as('missing'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
