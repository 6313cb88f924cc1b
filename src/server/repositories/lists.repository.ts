import type { Insertable, Kysely, Updateable } from 'kysely';
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

/** The member contacts of each list, in one query (no N+1), ascending. */
/** A member of a list: the contact's service id and ccid (spec §2.1 picks which names it). */
export interface MemberContact {
  id: number;
  ccid: string | null;
}

export async function memberContacts(
  db: Kysely<Database>,
  listIds: readonly number[],
): Promise<Map<number, MemberContact[]>> {
  const members = new Map<number, MemberContact[]>(listIds.map((id) => [id, []]));
  if (listIds.length === 0) return members;
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('contacts', 'contacts.id', 'memberships.contact_id')
    .select(['memberships.list_id', 'memberships.contact_id', 'contacts.ccid'])
    .where('memberships.list_id', 'in', listIds)
    .orderBy('memberships.list_id')
    .orderBy('memberships.contact_id')
    .execute();
  for (const row of rows) members.get(row.list_id)?.push({ id: row.contact_id, ccid: row.ccid });
  return members;
}

/** How many members each list has (memberships_list index), in one query. */
export async function memberCounts(
  db: Kysely<Database>,
  listIds: readonly number[],
): Promise<Map<number, number>> {
  if (listIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('memberships')
    .select((eb) => ['list_id', eb.fn.countAll().as('members')])
    .where('list_id', 'in', listIds)
    .groupBy('list_id')
    .execute();
  return new Map(rows.map((row) => [row.list_id, Number(row.members)]));
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

/** Memberships and archived messages (with their pending deliveries) go with the list (foreign keys). */
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
