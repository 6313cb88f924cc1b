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
