import type { Kysely, Updateable } from 'kysely';
import type { AdministratorsTable, Database } from '../db/schema.ts';
import type { AdministratorRow } from './administrators.repository.ts';

/** The administrators of one account, or the group's global ones (account null, spec §4.8 rule 2). */
function administratorsOf(db: Kysely<Database>, accountId: number | null) {
  const query = db.selectFrom('administrators').selectAll();
  return accountId === null
    ? query.where('account_id', 'is', null)
    : query.where('account_id', '=', accountId);
}

export function selectAdministrators(
  db: Kysely<Database>,
  accountId: number | null,
): Promise<AdministratorRow[]> {
  return administratorsOf(db, accountId).orderBy('id').execute();
}

/** How many administrators selectAdministrators would answer. */
export async function countAdministrators(
  db: Kysely<Database>,
  accountId: number | null,
): Promise<number> {
  const query = db.selectFrom('administrators').select((eb) => eb.fn.countAll().as('n'));
  const row = await (
    accountId === null
      ? query.where('account_id', 'is', null)
      : query.where('account_id', '=', accountId)
  ).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findAdministratorById(
  db: Kysely<Database>,
  accountId: number | null,
  id: number,
): Promise<AdministratorRow | undefined> {
  return administratorsOf(db, accountId).where('id', '=', id).executeTakeFirst();
}

/** Usernames are email addresses: compared without regard to case. */
export function findAdministratorByUsername(
  db: Kysely<Database>,
  accountId: number | null,
  username: string,
): Promise<AdministratorRow | undefined> {
  return administratorsOf(db, accountId)
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
}

/** A username is unique across the installation (the sign-in page knows no account). */
export async function usernameTaken(
  db: Kysely<Database>,
  username: string,
  exceptId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('administrators')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export function updateAdministratorRow(
  db: Kysely<Database>,
  id: number,
  values: Updateable<AdministratorsTable>,
): Promise<AdministratorRow> {
  return db
    .updateTable('administrators')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Its API keys go with it (foreign key). */
export async function deleteAdministratorRow(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('administrators').where('id', '=', id).execute();
}

/**
 * The `key_expiry` extension of each administrator that has API keys: the latest expiry among its
 * keys, or null while one of them never expires. Administrators without a key are not in the map.
 */
export async function selectKeyExpiries(
  db: Kysely<Database>,
  administratorIds: readonly number[],
): Promise<Map<number, string | null>> {
  if (administratorIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('api_keys')
    .select((eb) => [
      'administrator_id',
      eb.fn.max('expires_at').as('latest'),
      eb.fn.count('id').as('keys'),
      // count(column) leaves out nulls: the keys that expire.
      eb.fn.count('expires_at').as('expiring'),
    ])
    .where('administrator_id', 'in', administratorIds)
    .groupBy('administrator_id')
    .execute();
  return new Map(
    rows.map((row) => [
      row.administrator_id,
      Number(row.keys) > Number(row.expiring) ? null : row.latest,
    ]),
  );
}
