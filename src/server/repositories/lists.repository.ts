import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import { heavyRows } from '../db/heavy-reader.ts';
import type { Database, ListsTable } from '../db/schema.ts';
import type { ListRow } from './lists.mapper.ts';

/** Every list of an account, by name; `names` narrows to those (a limit_lists principal). */
export function selectLists(
  db: Kysely<Database>,
  accountId: number,
  names: readonly string[] | null,
): Promise<ListRow[]> {
  if (names !== null && names.length === 0) return Promise.resolve([]);
  let query = db.selectFrom('lists').selectAll().where('account_id', '=', accountId);
  if (names !== null) query = query.where('name', 'in', names);
  return query.orderBy('name').execute();
}

export function findListByName(
  db: Kysely<Database>,
  accountId: number,
  name: string,
): Promise<ListRow | undefined> {
  return db
    .selectFrom('lists')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export function findListById(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<ListRow | undefined> {
  return db
    .selectFrom('lists')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The names among `names` that are lists of the account. */
export async function existingListNames(
  db: Kysely<Database>,
  accountId: number,
  names: readonly string[],
): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db
    .selectFrom('lists')
    .select('name')
    .where('account_id', '=', accountId)
    .where('name', 'in', [...new Set(names)])
    .execute();
  return new Set(rows.map((row) => row.name));
}

/**
 * A list's members as an answer names them (spec §2.4 `contacts`): the JSON text of their ids (or
 * ccids, spec §2.1) in ascending id order, and how many there are.
 */
export interface MemberRefs {
  json: string;
  count: number;
}

const NO_MEMBERS: MemberRefs = { json: '[]', count: 0 };

/**
 * How many members each list has (memberships_list index). SECURITY.md 29: a list may have a
 * million, so this is a heavy read (db/heavy-reader.ts heavyRows).
 */
export async function memberCounts(
  db: Kysely<Database>,
  accountId: number,
  listIds: readonly number[],
): Promise<Map<number, number>> {
  if (listIds.length === 0) return new Map();
  const rows = await heavyRows(
    db,
    accountId,
    sql`select list_id, count(*) from memberships where list_id in (${sql.join(listIds)}) group by list_id`,
  );
  return new Map(rows.map(([list, count]) => [Number(list), Number(count)]));
}

/**
 * Each list's members as MemberRefs. The database builds the JSON text (SQLite json_group_array,
 * PostgreSQL string_agg), so the server's thread never handles a million ids one by one
 * (SECURITY.md 29: 190,043 of them were read row by row and serialized on the event loop).
 */
export async function memberRefs(
  db: Kysely<Database>,
  account: { id: number; ccid: number },
  listIds: readonly number[],
): Promise<Map<number, MemberRefs>> {
  const found = new Map<number, MemberRefs>(listIds.map((id) => [id, NO_MEMBERS]));
  if (listIds.length === 0) return found;
  const ccid = account.ccid === 1;
  const sqlite = dialectOf(db) === 'sqlite';
  // Spec §2.1: on a ccid-enabled account a contact is named by its ccid (services/contact-ref.ts).
  const ref = ccid
    ? sqlite
      ? sql`coalesce(c.ccid, m.contact_id)`
      : sql`coalesce(to_json(c.ccid)::text, m.contact_id::text)`
    : sqlite
      ? sql`m.contact_id`
      : sql`m.contact_id::text`;
  const refs = sqlite
    ? sql`json_group_array(${ref} order by m.contact_id)`
    : sql`'[' || string_agg(${ref}, ',' order by m.contact_id) || ']'`;
  const join = ccid ? sql`join contacts c on c.id = m.contact_id` : sql``;
  const rows = await heavyRows(
    db,
    account.id,
    sql`select m.list_id, count(*), ${refs} from memberships m ${join}
      where m.list_id in (${sql.join(listIds)}) group by m.list_id`,
  );
  for (const [list, count, json] of rows)
    found.set(Number(list), { json: String(json), count: Number(count) });
  return found;
}

export function insertList(db: Kysely<Database>, values: Insertable<ListsTable>): Promise<ListRow> {
  return db.insertInto('lists').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateListRow(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  values: Updateable<ListsTable>,
): Promise<ListRow> {
  return db
    .updateTable('lists')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Memberships and archived messages (with their pending deliveries) go with the list (foreign
 * keys): after repositories/chunked-deletes.repository.ts took them, a few rows at most.
 */
export async function deleteListRow(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<void> {
  await db.deleteFrom('lists').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** The settings bag of every list of the account, for rewriting list-name references. */
export function selectListSettings(
  db: Kysely<Database>,
  accountId: number,
): Promise<Pick<ListRow, 'id' | 'settings'>[]> {
  return db
    .selectFrom('lists')
    .select(['id', 'settings'])
    .where('account_id', '=', accountId)
    .execute();
}

export async function setListSettings(
  db: Kysely<Database>,
  id: number,
  settings: string,
): Promise<void> {
  await db.updateTable('lists').set({ settings }).where('id', '=', id).execute();
}
