import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MemberRequestsTable } from '../db/schema.ts';

export type MemberRequestRow = Selectable<MemberRequestsTable>;
export type MemberRequestKind = MemberRequestsTable['kind'];

/** A request with the name of its list, as the moderators' queue shows it. */
export type MemberRequestWithList = MemberRequestRow & { list_name: string };

export function findRequest(
  db: Kysely<Database>,
  listId: number,
  kind: MemberRequestKind,
  addressKey: string,
): Promise<MemberRequestRow | undefined> {
  return db
    .selectFrom('member_requests')
    .selectAll()
    .where('list_id', '=', listId)
    .where('kind', '=', kind)
    .where('address_key', '=', addressKey)
    .executeTakeFirst();
}

export function findRequestById(
  db: Kysely<Database>,
  id: number,
): Promise<MemberRequestRow | undefined> {
  return db.selectFrom('member_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The request of this list, kind and address, made now or the one already waiting (asking again
 * does not start over: the link already mailed keeps working).
 */
export async function insertRequestOnce(
  db: Kysely<Database>,
  values: Insertable<MemberRequestsTable>,
): Promise<MemberRequestRow> {
  await db
    .insertInto('member_requests')
    .values(values)
    .onConflict((oc) => oc.columns(['list_id', 'kind', 'address_key']).doNothing())
    .execute();
  const row = await findRequest(db, values.list_id, values.kind, values.address_key);
  if (!row) throw new Error('a member request vanished within its own transaction');
  return row;
}

/** The address confirmed: the request now waits for a moderator until `expiresAt`. */
export async function moveToModeration(
  db: Kysely<Database>,
  id: number,
  confirmedIso: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('member_requests')
    .set({ state: 'moderate', confirmed: confirmedIso, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

/** Ends a request (done, refused, dropped): answers whether this call was the one that ended it. */
export async function deleteRequest(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('member_requests').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Ends every request past its expiry (their tokens go with them); answers how many. */
export async function deleteExpiredRequests(db: Kysely<Database>, nowIso: string): Promise<number> {
  const result = await db
    .deleteFrom('member_requests')
    .where('expires_at', '<=', nowIso)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The requests that wait for a moderator in an account; `listNames` narrows (limit_lists). */
function waitingOf(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
  filters: { list?: string | undefined; kind?: MemberRequestKind | undefined } = {},
) {
  let query = db
    .selectFrom('member_requests')
    .innerJoin('lists', 'lists.id', 'member_requests.list_id')
    .where('member_requests.account_id', '=', accountId)
    .where('member_requests.state', '=', 'moderate');
  if (listNames !== null) query = query.where('lists.name', 'in', listNames);
  if (filters.list !== undefined) query = query.where('lists.name', '=', filters.list);
  if (filters.kind !== undefined) query = query.where('member_requests.kind', '=', filters.kind);
  return query;
}

export async function countWaiting(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
  filters: { list?: string | undefined; kind?: MemberRequestKind | undefined },
): Promise<number> {
  if (listNames !== null && listNames.length === 0) return 0;
  const row = await waitingOf(db, accountId, listNames, filters)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many requests of each kind wait on each list that has any. */
export async function countWaitingPerList(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
): Promise<{ list: string; join: number; leave: number }[]> {
  if (listNames !== null && listNames.length === 0) return [];
  const rows = await waitingOf(db, accountId, listNames)
    .select((eb) => [
      'lists.name as list',
      'member_requests.kind',
      eb.fn.countAll<number | string>().as('count'),
    ])
    .groupBy(['lists.name', 'member_requests.kind'])
    .orderBy('lists.name')
    .execute();
  const byList = new Map<string, { list: string; join: number; leave: number }>();
  for (const row of rows) {
    const entry = byList.get(row.list) ?? { list: row.list, join: 0, leave: 0 };
    entry[row.kind] = Number(row.count);
    byList.set(row.list, entry);
  }
  return [...byList.values()];
}

/** A page of waiting requests, oldest first (the first to wait is the first answered). */
export function pageWaiting(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
  page: { offset: number; limit: number; list?: string | undefined; kind?: MemberRequestKind | undefined },
): Promise<MemberRequestWithList[]> {
  return waitingOf(db, accountId, listNames, page)
    .selectAll('member_requests')
    .select('lists.name as list_name')
    .orderBy('member_requests.id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** The waiting requests among `ids` that the caller may see. */
export function findWaiting(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
  listNames: readonly string[] | null,
): Promise<MemberRequestWithList[]> {
  if (ids.length === 0 || (listNames !== null && listNames.length === 0))
    return Promise.resolve([]);
  return waitingOf(db, accountId, listNames)
    .selectAll('member_requests')
    .select('lists.name as list_name')
    .where('member_requests.id', 'in', ids)
    .execute();
}
