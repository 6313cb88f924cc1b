import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Kysely, type QueryResult } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * SECURITY.md 29: deleting a list, an account or a custom field cascaded through every row hanging from it in one
 * statement (a list's million memberships and their deliveries, an account's every contact), on
 * SQLite on the server's only thread, holding it and the writer for seconds. What hangs from them
 * is deleted here first, DELETE_CHUNK rows a statement (each its own implicit transaction, its
 * cascades and triggers bounded by the chunk), with the event loop's turn between two, so other
 * requests run meanwhile; the list or account itself then goes in a short transaction that
 * cascades through what little is left. Each step leaves a consistent state (a list with fewer
 * members and messages, an account with fewer contacts): a delete cut short is finished by
 * sending it again.
 */
export const DELETE_CHUNK = 500;

/** The outbox rows, messages, held messages and memberships of a list. */
export async function deleteListContents(db: Kysely<Database>, listId: number): Promise<void> {
  await deleteMail(db, 'list_id', listId);
  await drainTable(db, 'memberships', 'list_id', listId);
}

/**
 * A custom field's values (issue 27 item 1), one per contact that has one: each contact's document
 * and search text follow by their triggers, a chunk at a time. Answers how many went.
 */
export function deleteFieldValues(db: Kysely<Database>, fieldId: number): Promise<number> {
  return drain(() =>
    sql`delete from contact_values where field_id = ${fieldId} and contact_id in
      (select contact_id from contact_values where field_id = ${fieldId} limit ${DELETE_CHUNK})`.execute(db),
  );
}

/** The outbox rows, messages, held messages and contacts (with all that is theirs) of an account. */
export async function deleteAccountContents(db: Kysely<Database>, accountId: number): Promise<void> {
  await deleteMail(db, 'account_id', accountId);
  // Each contact takes its addresses, memberships, values, document and search rows with it.
  await drainTable(db, 'contacts', 'account_id', accountId);
}

/** The archived messages (their deliveries first) and the held messages of a list or an account. */
async function deleteMail(
  db: Kysely<Database>,
  column: 'list_id' | 'account_id',
  id: number,
): Promise<void> {
  await drain(() =>
    sql`delete from outbox where id in (select id from outbox where message_id in
      (select id from messages where ${sql.ref(column)} = ${id}) limit ${DELETE_CHUNK})`.execute(db),
  );
  await drainTable(db, 'messages', column, id);
  await drainTable(db, 'held_messages', column, id);
}

/** The rows of `table` whose `column` is `id`, a chunk a statement. */
function drainTable(
  db: Kysely<Database>,
  table: 'messages' | 'held_messages' | 'memberships' | 'contacts',
  column: 'list_id' | 'account_id',
  id: number,
): Promise<number> {
  return drain(() =>
    sql`delete from ${sql.table(table)} where id in
      (select id from ${sql.table(table)} where ${sql.ref(column)} = ${id} limit ${DELETE_CHUNK})`.execute(db),
  );
}

/**
 * Runs a chunk's delete until one deletes less than a chunk, yielding the thread between two;
 * answers how many rows went.
 */
async function drain(chunk: () => Promise<QueryResult<unknown>>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { numAffectedRows = 0n } = await chunk();
    deleted += Number(numAffectedRows);
    if (numAffectedRows < BigInt(DELETE_CHUNK)) return deleted;
    await nextTurn();
  }
}
