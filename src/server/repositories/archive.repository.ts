import { sql, type Kysely, type RawBuilder } from 'kysely';
import { oneAtATimePerAccount, readPoolOf } from '../db/heavy-reader.ts';
import { dialectOf } from '../db/dialect.ts';
import { SQLITE_LIST_FACTOR } from '../db/migrations/2026-11-29T0500-archive.ts';
import type { Database } from '../db/schema.ts';

/**
 * What the members' archive (issue 26 item 3) reads of a list's messages. Every read is bounded by
 * its page, whatever the archive's size: pages of threads and search results go down an index from
 * where the page starts (keyset), a month is one range of `messages_list`, a thread one range of
 * `messages_list_thread` (migration 2026-11-29T0500). Nothing is cached: a message deleted through
 * the API (spec §4.5) is gone from the next page.
 */

/** A message as the archive's lists show it (no content). */
export interface ArchivedSummary {
  id: number;
  thread_id: number;
  parent_id: number | null;
  subject: string;
  from_phrase: string;
  from_address: string;
  time: number;
}

export interface ArchivedMessage extends ArchivedSummary {
  content_plain: string;
  content_html: string;
}

const SUMMARY = [
  'id',
  'thread_id',
  'parent_id',
  'subject',
  'from_phrase',
  'from_address',
  'time',
] as const;

/** Numbers come back as strings from PostgreSQL's bigint and count. */
const toSummary = (row: ArchivedSummary): ArchivedSummary => ({ ...row, time: Number(row.time) });

export interface ThreadRow {
  threadId: number;
  messages: number;
  firstId: number;
  lastId: number;
}

/**
 * A page of threads by when they began (a thread is named by its first message's id, spec §2.5
 * `thread_id`): the newest ones below `from.before`, or the oldest ones above `from.after` (the
 * page before, read backwards). Each with its count and first and last message.
 */
export async function threadsPage(
  db: Kysely<Database>,
  listId: number,
  from: { before: number | null } | { after: number },
  limit: number,
): Promise<ThreadRow[]> {
  let query = db
    .selectFrom('messages')
    .select((eb) => [
      'thread_id',
      eb.fn.countAll<number | string>().as('messages'),
      eb.fn.min('id').as('first_id'),
      eb.fn.max('id').as('last_id'),
    ])
    .where('list_id', '=', listId);
  if ('after' in from) query = query.where('thread_id', '>', from.after);
  else if (from.before !== null) query = query.where('thread_id', '<', from.before);
  const rows = await query
    .groupBy('thread_id')
    .orderBy('thread_id', 'after' in from ? 'asc' : 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    threadId: row.thread_id,
    messages: Number(row.messages),
    firstId: Number(row.first_id),
    lastId: Number(row.last_id),
  }));
}

/** The list's messages with these ids, in id order. */
export async function summariesOf(
  db: Kysely<Database>,
  listId: number,
  ids: readonly number[],
): Promise<ArchivedSummary[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .select(SUMMARY)
    .where('list_id', '=', listId)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  return rows.map(toSummary);
}

/** One thread's messages in the order they came, up to `limit`. */
export async function threadMessages(
  db: Kysely<Database>,
  listId: number,
  threadId: number,
  limit: number,
): Promise<ArchivedSummary[]> {
  const rows = await db
    .selectFrom('messages')
    .select(SUMMARY)
    .where('list_id', '=', listId)
    .where('thread_id', '=', threadId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toSummary);
}

/** How many messages a thread has: one range of `messages_list_thread`. */
export async function countThread(
  db: Kysely<Database>,
  listId: number,
  threadId: number,
): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('list_id', '=', listId)
    .where('thread_id', '=', threadId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function archivedMessage(
  db: Kysely<Database>,
  listId: number,
  id: number,
): Promise<ArchivedMessage | undefined> {
  const row = await db
    .selectFrom('messages')
    .select([...SUMMARY, 'content_plain', 'content_html'])
    .where('list_id', '=', listId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { ...row, time: Number(row.time) };
}

/**
 * The first second (Unix, UTC) of each month with messages, newest first, up to `limit`: one
 * statement that seeks the index once a month (a loose index scan), however many messages a month
 * holds.
 */
export async function monthsWithMessages(
  db: Kysely<Database>,
  listId: number,
  limit: number,
): Promise<number[]> {
  const monthStart = (time: RawBuilder<unknown>) =>
    dialectOf(db) === 'sqlite'
      ? sql<number>`cast(strftime('%s', ${time}, 'unixepoch', 'start of month') as integer)`
      : sql<number>`cast(extract(epoch from date_trunc('month', to_timestamp(${time}) at time zone 'UTC')) as bigint)`;
  const rows = await sql<{ start: number | string }>`with recursive months(start, n) as (
      select ${monthStart(sql`max(time)`)}, 1 from messages where list_id = ${listId}
      union all
      select (select ${monthStart(sql`max(m.time)`)} from messages m
          where m.list_id = ${listId} and m.time < months.start), n + 1
        from months where months.start is not null and n < ${limit}
    )
    select start from months where start is not null`.execute(db);
  return rows.rows.map((row) => Number(row.start));
}

/** How many of the list's messages were sent in [from, to) (Unix seconds). */
export async function countBetween(
  db: Kysely<Database>,
  listId: number,
  from: number,
  to: number,
): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('list_id', '=', listId)
    .where('time', '>=', from)
    .where('time', '<', to)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * How many of the list's messages were sent in each of `ranges` (Unix seconds, [from, to)), in one
 * pass over the index from the oldest range's start to the newest one's end.
 */
export async function countsBetween(
  db: Kysely<Database>,
  listId: number,
  ranges: readonly { from: number; to: number }[],
): Promise<number[]> {
  if (ranges.length === 0) return [];
  const row = await db
    .selectFrom('messages')
    .select(
      ranges.map((range, index) =>
        sql<
          number | string
        >`sum(case when time >= ${range.from} and time < ${range.to} then 1 else 0 end)`.as(
          `c${index}`,
        ),
      ),
    )
    .where('list_id', '=', listId)
    .where('time', '>=', Math.min(...ranges.map((range) => range.from)))
    .where('time', '<', Math.max(...ranges.map((range) => range.to)))
    .executeTakeFirstOrThrow();
  const counts = row as Record<string, number | string | null>;
  return ranges.map((_, index) => Number(counts[`c${index}`] ?? 0));
}

/** One page of the messages sent in [from, to), newest first. */
export async function messagesBetween(
  db: Kysely<Database>,
  listId: number,
  range: { from: number; to: number; offset: number; limit: number },
): Promise<ArchivedSummary[]> {
  const rows = await db
    .selectFrom('messages')
    .select(SUMMARY)
    .where('list_id', '=', listId)
    .where('time', '>=', range.from)
    .where('time', '<', range.to)
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(range.limit)
    .offset(range.offset)
    .execute();
  return rows.map(toSummary);
}

/** A search's terms: whole words, and beginnings of words (the last letters left open). */
export interface SearchTerm {
  word: string;
  prefix: boolean;
}

/**
 * The ids of the list's messages whose words hold every term, newest first, below `before`: on
 * SQLite in the FTS5 index, one rowid range per list, on a reader thread (db/heavy-reader.ts); on
 * PostgreSQL in the GIN index or down (list, id). Terms are letters and digits only (the caller's
 * parse), so neither query language sees an operator from the reader.
 */
export async function searchIds(
  db: Kysely<Database>,
  list: { id: number; accountId: number },
  terms: readonly SearchTerm[],
  before: number | null,
  limit: number,
): Promise<number[]> {
  if (terms.length === 0) return [];
  const query =
    dialectOf(db) === 'sqlite'
      ? sql<{ id: number }>`select rowid - ${list.id} * ${sql.lit(SQLITE_LIST_FACTOR)} as id
          from message_search
          where message_search match ${terms.map((t) => `"${t.word}"${t.prefix ? '*' : ''}`).join(' AND ')}
            and rowid > ${list.id} * ${sql.lit(SQLITE_LIST_FACTOR)}
            and rowid < ${list.id} * ${sql.lit(SQLITE_LIST_FACTOR)} + ${before ?? SQLITE_LIST_FACTOR}
          order by rowid desc limit ${limit}`
      : sql<{ id: number }>`select id from messages
          where list_id = ${list.id}
            and search_words @@ to_tsquery('simple', ${terms.map((t) => `${t.word}${t.prefix ? ':*' : ''}`).join(' & ')})
            ${before === null ? sql`` : sql`and id < ${before}`}
          order by id desc limit ${limit}`;
  const statement = query.compile(db);
  const pool = readPoolOf(db);
  const rows = await oneAtATimePerAccount(db, list.accountId, async () =>
    pool
      ? (await pool.rows(statement)).map((row) => row[0])
      : (await db.executeQuery<{ id: number }>(statement)).rows.map((row) => row.id),
  );
  return rows.map(Number);
}

/** The found messages with their plain text, for the lines that show where each matched. */
export async function searchResults(
  db: Kysely<Database>,
  listId: number,
  ids: readonly number[],
  plainChars: number,
): Promise<(ArchivedSummary & { plain: string })[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .select([...SUMMARY, sql<string>`substr(content_plain, 1, ${plainChars})`.as('plain')])
    .where('list_id', '=', listId)
    .where('id', 'in', ids)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...toSummary(row), plain: row.plain }));
}

/** The archive's password hash (spec §2.4 `archive_password`, write-only): null when there is none. */
export async function archivePasswordHash(
  db: Kysely<Database>,
  listId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('lists')
    .select('archive_password_hash')
    .where('id', '=', listId)
    .executeTakeFirst();
  return row?.archive_password_hash ?? null;
}

/** Lists reachable at an address (their account has a domain), by domain and name, after `after`. */
export function listsForIndex(
  db: Kysely<Database>,
  after: { domain: string; name: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('lists')
    .innerJoin('accounts', 'accounts.id', 'lists.account_id')
    .select([
      'lists.id',
      'lists.account_id',
      'lists.name',
      'lists.settings',
      sql<string>`lower(accounts.domain)`.as('domain'),
      'accounts.settings as account_settings',
    ])
    .where('accounts.domain', 'is not', null)
    .where('accounts.domain', '!=', '');
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(accounts.domain)`, '>', after.domain),
        eb.and([
          eb(sql`lower(accounts.domain)`, '=', after.domain),
          eb('lists.name', '>', after.name),
        ]),
      ]),
    );
  return query
    .orderBy(sql`lower(accounts.domain)`)
    .orderBy('lists.name')
    .limit(limit)
    .execute();
}
