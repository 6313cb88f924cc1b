import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type CompiledQuery, type Insertable, type Kysely, type Selectable } from 'kysely';
import { oneAtATimePerAccount, readPoolOf, type Rows } from '../db/heavy-reader.ts';
import type { AuditEntriesTable, Database } from '../db/schema.ts';

/*
 * The audit log's SQL (issue 26 item 4): entries are only ever inserted, read a page at a time by
 * keyset, and purged when older than the retention. Nothing here updates or deletes one entry
 * (SECURITY.md 49: append-only through the API).
 */

export type AuditRow = Selectable<AuditEntriesTable>;

/**
 * An entry to insert. An administrator's name is read from its row as the entry is written, and a
 * list named without its id (`list_id` undefined) is found by its name in the entry's account.
 */
export type NewAuditRow = Omit<
  Insertable<AuditEntriesTable>,
  'id' | 'actor_name' | 'actor_key' | 'list_id'
> & {
  actor_name: string | null;
  list_id: number | null | undefined;
};

/**
 * Inserts a transaction's entries in one statement. What it must look up (an administrator's
 * current username or key description, a list's id) is read by the statement itself: no round
 * trip of its own, and as the transaction sees it when the change commits.
 */
export async function insertAuditRows(
  db: Kysely<Database>,
  rows: readonly NewAuditRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('audit_entries')
    .values(rows.map((row) => ({ ...row, ...actorOf(db, row), list_id: listIdOf(db, row) })))
    .execute();
}

function actorOf(db: Kysely<Database>, row: NewAuditRow) {
  if (row.actor_type !== 'administrator' || row.actor_id == null)
    return { actor_name: row.actor_name, actor_key: row.actor_name?.toLowerCase() ?? null };
  const name = db
    .selectFrom('administrators')
    .select(sql<string>`coalesce(username, nullif(description, ''))`.as('name'))
    .where('id', '=', row.actor_id);
  return { actor_name: name, actor_key: sql<string>`lower(${name})` };
}

function listIdOf(db: Kysely<Database>, row: NewAuditRow) {
  if (row.list_id !== undefined || row.list_name == null || row.account_id == null)
    return row.list_id ?? null;
  return db
    .selectFrom('lists')
    .select('id')
    .where('account_id', '=', row.account_id)
    .where('name', '=', row.list_name);
}

/** The newest entry a page continues after (the `next` of the page before). */
export interface AuditKey {
  time: string;
  id: number;
}

/** What a page reads: the scope it may see, then the caller's filters. */
export interface AuditFilters {
  /** The account's entries, or the group's (null). */
  accountId: number | null;
  /** Only entries of these lists (a list-limited administrator's); null: every entry. */
  listIds: readonly number[] | null;
  since?: string | undefined;
  until?: string | undefined;
  /** A username, description or address in lower case; `system` entries by `system`. */
  actorKey?: string | undefined;
  system?: boolean;
  list?: { id: number } | { name: string } | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
  operation?: string | undefined;
  after?: AuditKey | undefined;
  limit: number;
}

const COLUMNS = [
  'id',
  'account_id',
  'time',
  'actor_type',
  'actor_id',
  'actor_name',
  'actor_key',
  'address',
  'service',
  'operation',
  'object_type',
  'object_id',
  'list_id',
  'list_name',
  'changes',
  'details',
] as const satisfies readonly (keyof AuditRow)[];

/**
 * A page of entries, newest first (time, then id). Each filter is one the indexes of migration
 * 2026-11-29T0600 order by time; the rest narrow what they read. On SQLite it runs on a reader
 * thread, and on both dialects one page per account at a time (db/heavy-reader.ts), so a search
 * through a long log never holds the server's thread or another tenant's turn (SECURITY.md 29).
 */
export async function selectAuditPage(
  db: Kysely<Database>,
  filters: AuditFilters,
): Promise<AuditRow[]> {
  if (filters.listIds !== null && filters.listIds.length === 0) return [];
  let query = db
    .selectFrom('audit_entries')
    .select(COLUMNS)
    .where('account_id', filters.accountId === null ? 'is' : '=', filters.accountId);
  if (filters.listIds !== null) query = query.where('list_id', 'in', filters.listIds);
  if (filters.since !== undefined) query = query.where('time', '>=', filters.since);
  if (filters.until !== undefined) query = query.where('time', '<=', filters.until);
  if (filters.system) query = query.where('actor_type', '=', 'system');
  else if (filters.actorKey !== undefined) query = query.where('actor_key', '=', filters.actorKey);
  if (filters.list !== undefined)
    query =
      'id' in filters.list
        ? query.where('list_id', '=', filters.list.id)
        : query.where('list_name', '=', filters.list.name);
  if (filters.objectType !== undefined) query = query.where('object_type', '=', filters.objectType);
  if (filters.objectId !== undefined) query = query.where('object_id', '=', filters.objectId);
  if (filters.operation !== undefined) query = query.where('operation', '=', filters.operation);
  const after = filters.after;
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('time', '<', after.time),
        eb.and([eb('time', '=', after.time), eb('id', '<', after.id)]),
      ]),
    );
  const statement = query
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(filters.limit)
    .compile();
  const rows = await logRead(db, filters.accountId, statement);
  return rows.map(
    (values) => Object.fromEntries(COLUMNS.map((column, at) => [column, values[at]])) as AuditRow,
  );
}

/**
 * A read of the log, which may go through much of it: on SQLite on a reader thread, on both one
 * per account at a time (db/heavy-reader.ts).
 */
async function logRead(
  db: Kysely<Database>,
  accountId: number | null,
  statement: CompiledQuery,
): Promise<Rows> {
  const pool = readPoolOf(db);
  return oneAtATimePerAccount(db, accountId ?? 0, async () =>
    pool
      ? pool.rows(statement)
      : (await db.executeQuery<Record<string, unknown>>(statement)).rows.map((row) =>
          Object.values(row),
        ),
  );
}

/** The id of the list the log last knew by `name` in the account (a list since deleted), or null. */
export async function lastListNamed(
  db: Kysely<Database>,
  accountId: number | null,
  name: string,
): Promise<number | null> {
  const statement = db
    .selectFrom('audit_entries')
    .select('list_id')
    .where('account_id', accountId === null ? 'is' : '=', accountId)
    .where('list_name', '=', name)
    .where('list_id', 'is not', null)
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .compile();
  const [row] = await logRead(db, accountId, statement);
  return row ? Number(row[0]) : null;
}

/** Entries a purge statement removes at most: each is short, and the thread turns between two. */
export const PURGE_CHUNK = 500;

/**
 * Deletes the entries older than `before`, oldest first by id, a chunk a statement with the event
 * loop's turn between two (as repositories/chunked-deletes.repository.ts). Entries are written in
 * time order but for clocks that disagree by moments, so the oldest ids are the oldest entries: the
 * purge stops at the first chunk whose oldest entry is still young, reading only what it removes.
 * Answers how many it removed.
 */
export async function purgeAuditRows(db: Kysely<Database>, before: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const oldest = await db
      .selectFrom('audit_entries')
      .select(['id', 'time'])
      .orderBy('id')
      .limit(PURGE_CHUNK)
      .execute();
    const expired = oldest.filter((row) => row.time < before).map((row) => row.id);
    if (expired.length > 0) {
      const result = await db
        .deleteFrom('audit_entries')
        .where('id', 'in', expired)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    if (expired.length < PURGE_CHUNK) return removed;
    await nextTurn();
  }
}
