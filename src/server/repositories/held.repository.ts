import { sql, type ExpressionBuilder, type Insertable, type Kysely } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import type { Database, HeldMessagesTable } from '../db/schema.ts';
import type { HeldRow } from './held.mapper.ts';

/** The account's held messages with their list's name; `listNames` narrows (limit_lists), `list` filters. */
function heldOf(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
  list?: string,
) {
  let query = db
    .selectFrom('held_messages')
    .innerJoin('lists', 'lists.id', 'held_messages.list_id')
    .where('held_messages.account_id', '=', accountId);
  if (listNames !== null) query = query.where('lists.name', 'in', listNames);
  if (list !== undefined) query = query.where('lists.name', '=', list);
  return query;
}

const SUMMARY = [
  'held_messages.id',
  'lists.name as list',
  'held_messages.list_id',
  'held_messages.subject',
  'held_messages.from_phrase',
  'held_messages.from_address',
  'held_messages.received',
  'held_messages.size',
  'held_messages.message_id',
  'held_messages.rule',
  'held_messages.setting',
  'held_messages.reason',
  'held_messages.reasons',
] as const;

const DETAIL = [
  ...SUMMARY,
  'held_messages.headers',
  'held_messages.raw_deflated',
  'held_messages.plain_deflated',
  'held_messages.html_deflated',
  'held_messages.answerable',
  'held_messages.received_authentication',
] as const;

export async function countHeld(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
  list?: string,
): Promise<number> {
  if (listNames !== null && listNames.length === 0) return 0;
  const row = await heldOf(db, accountId, listNames, list)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many messages each list holds, for the lists that hold any. */
export async function countHeldPerList(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
): Promise<{ list: string; count: number }[]> {
  if (listNames !== null && listNames.length === 0) return [];
  const rows = await heldOf(db, accountId, listNames)
    .select((eb) => ['lists.name as list', eb.fn.countAll<number | string>().as('count')])
    .groupBy('lists.name')
    .orderBy('lists.name')
    .execute();
  return rows.map((row) => ({ list: row.list, count: Number(row.count) }));
}

/** One page, oldest first: a moderator works through the queue in the order mail arrived. */
export function pageHeld(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
  page: { offset: number; limit: number; list?: string },
): Promise<HeldRow[]> {
  if (listNames !== null && listNames.length === 0) return Promise.resolve([]);
  return heldOf(db, accountId, listNames, page.list)
    .select(SUMMARY)
    .orderBy('held_messages.received', 'asc')
    .orderBy('held_messages.id', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findHeld(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
  listNames: readonly string[] | null,
) {
  if ((listNames !== null && listNames.length === 0) || ids.length === 0)
    return Promise.resolve([]);
  return heldOf(db, accountId, listNames)
    .select(DETAIL)
    .where('held_messages.id', 'in', ids)
    .execute();
}

export async function insertHeld(
  db: Kysely<Database>,
  values: Insertable<HeldMessagesTable>,
): Promise<number> {
  const row = await db
    .insertInto('held_messages')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Takes held messages out of the queue; answers the ids it removed, so that two moderators acting
 * on one message at once act once (the second finds it gone).
 */
export async function deleteHeld(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .deleteFrom('held_messages')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Whether a message with this Message-ID is held in the account. */
export async function heldMessageExists(
  db: Kysely<Database>,
  accountId: number,
  messageId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('held_messages')
    .select('id')
    .where('account_id', '=', accountId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The first key of the advisory locks taken on one list's copies of one message ("INBD"). */
const INBOUND_LOCK = 0x494e4244;

/**
 * Serializes, until the transaction ends, the handling of copies of one message (`messageId`) sent
 * to one list: on PostgreSQL two copies arriving at once would each find no earlier one and both
 * act. SQLite runs one writing transaction at a time, but a transaction begins as a reader: had it
 * read first, another process's commit (a `listkeeper demo` beside `serve`) would make its first
 * write fail at once with "database is locked" (WAL cannot move a stale reader to writer). So, as
 * its first statement, it takes the write lock (a delete of nothing), waiting its busy timeout.
 */
export async function lockInbound(
  db: Kysely<Database>,
  listId: number,
  messageId: string,
): Promise<void> {
  if (dialectOf(db) !== 'postgres') {
    await sql`delete from held_messages where 0`.execute(db);
    return;
  }
  await sql`select pg_advisory_xact_lock(${INBOUND_LOCK}, hashtext(${`${listId} ${messageId}`}))`.execute(
    db,
  );
}

/** Whether the list holds a message with this Message-ID in its queue. */
export async function isHeldInList(
  db: Kysely<Database>,
  listId: number,
  messageId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('held_messages')
    .select('id')
    .where('list_id', '=', listId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The second key of the advisory lock on an account's held-queue bounds ("HELD"). */
const HELD_BOUNDS_LOCK = 0x48454c44;

/**
 * Serializes, until the transaction ends, the holding of messages in one account, so that two
 * messages arriving at once are counted against the bounds one after the other (PostgreSQL;
 * SQLite's transaction holds the write lock from its first statement, lockInbound).
 */
export async function lockHeldBounds(db: Kysely<Database>, accountId: number): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${HELD_BOUNDS_LOCK}, ${accountId})`.execute(db);
}

/** What the list's queue holds, and what one sender (any case) has held in the account. */
export async function heldUsage(
  db: Kysely<Database>,
  held: { accountId: number; listId: number; sender: string },
): Promise<{ listMessages: number; listBytes: number; senderMessages: number; senderBytes: number }> {
  const totals = (eb: ExpressionBuilder<Database, 'held_messages'>) =>
    [
      eb.fn.countAll<number | string>().as('messages'),
      eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'),
    ] as const;
  const list = await db
    .selectFrom('held_messages')
    .select(totals)
    .where('list_id', '=', held.listId)
    .executeTakeFirstOrThrow();
  const sender = await db
    .selectFrom('held_messages')
    .select(totals)
    .where('account_id', '=', held.accountId)
    // The expression of the index held_messages_sender (migration 2026-11-29T0210).
    .where(sql<string>`lower(from_address)`, '=', held.sender.toLowerCase())
    .executeTakeFirstOrThrow();
  return {
    listMessages: Number(list.messages),
    listBytes: Number(list.bytes),
    senderMessages: Number(sender.messages),
    senderBytes: Number(sender.bytes),
  };
}

/**
 * Drops up to `limit` held messages received before `before` (Unix seconds), oldest first;
 * answers how many. Mailman's max_days_to_hold: a queue nobody works does not grow for ever.
 */
export async function expireHeld(
  db: Kysely<Database>,
  before: number,
  limit: number,
): Promise<number> {
  const rows = await db
    .deleteFrom('held_messages')
    .where(
      'id',
      'in',
      db
        .selectFrom('held_messages')
        .select('id')
        .where('received', '<', before)
        .orderBy('received')
        .limit(limit),
    )
    .returning('id')
    .execute();
  return rows.length;
}
