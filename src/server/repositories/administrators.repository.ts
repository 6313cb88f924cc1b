import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import type { AdministratorsTable, Database } from '../db/schema.ts';

export type AdministratorRow = Selectable<AdministratorsTable>;

export async function insertAdministrator(
  db: Kysely<Database>,
  values: Insertable<AdministratorsTable>,
): Promise<AdministratorRow> {
  return db.insertInto('administrators').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertApiKey(
  db: Kysely<Database>,
  values: {
    administrator_id: number;
    key_hash: string;
    expires_at: string | null;
    created: string;
  },
): Promise<void> {
  await db.insertInto('api_keys').values(values).execute();
}

/** The `limit_lists` of every administrator of the account, for following a renamed list. */
export function selectAdministratorListLimits(
  db: Kysely<Database>,
  accountId: number,
): Promise<{ id: number; limit_lists: string }[]> {
  return db
    .selectFrom('administrators')
    .select(['id', 'limit_lists'])
    .where('account_id', '=', accountId)
    .execute();
}

export async function setAdministratorListLimits(
  db: Kysely<Database>,
  id: number,
  limitLists: string,
): Promise<void> {
  await db
    .updateTable('administrators')
    .set({ limit_lists: limitLists })
    .where('id', '=', id)
    .execute();
}

/** The administrator an API key belongs to, with the key's expiry: what authentication checks (spec §5.1). */
export function findKeyHolder(db: Kysely<Database>, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('administrators', 'administrators.id', 'api_keys.administrator_id')
    .select([
      'administrators.id as administrator_id',
      'administrators.account_id',
      'administrators.permissions',
      'administrators.limit_lists',
      'administrators.limit_metadata',
      'administrators.cidr',
      'api_keys.expires_at',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** The first key of the advisory locks taken on a scope's administrators ("ADMN"). */
const ADMINISTRATORS_LOCK = 0x41444d4e;

/**
 * Serializes, until the transaction ends, the changes that could take the last superadmin from an
 * account (`scope`) or from the group (`null`): on PostgreSQL two demotions side by side each see
 * the other's superadmin still there and would both commit. SQLite already runs one writing
 * transaction at a time.
 */
export async function lockAdministratorsOf(
  db: Kysely<Database>,
  scope: number | null,
): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK}, ${scope ?? 0})`.execute(db);
}
