import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * SECURITY.md 29: deleting a list or an account cascaded through every row hanging from it in one
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
  const messages = () => db.selectFrom('messages').select('id').where('list_id', '=', listId);
  await drain(() =>
    db
      .deleteFrom('outbox')
      .where('id', 'in', db.selectFrom('outbox').select('id').where('message_id', 'in', messages()).limit(DELETE_CHUNK)),
  );
  await drain(() => db.deleteFrom('messages').where('id', 'in', messages().limit(DELETE_CHUNK)));
  await drain(() =>
    db
      .deleteFrom('held_messages')
      .where('id', 'in', db.selectFrom('held_messages').select('id').where('list_id', '=', listId).limit(DELETE_CHUNK)),
  );
  await drain(() =>
    db
      .deleteFrom('memberships')
      .where('id', 'in', db.selectFrom('memberships').select('id').where('list_id', '=', listId).limit(DELETE_CHUNK)),
  );
}

/** The outbox rows, messages, held messages and contacts (with their addresses, memberships and values) of an account. */
export async function deleteAccountContents(db: Kysely<Database>, accountId: number): Promise<void> {
  const messages = () => db.selectFrom('messages').select('id').where('account_id', '=', accountId);
  await drain(() =>
    db
      .deleteFrom('outbox')
      .where('id', 'in', db.selectFrom('outbox').select('id').where('message_id', 'in', messages()).limit(DELETE_CHUNK)),
  );
  await drain(() => db.deleteFrom('messages').where('id', 'in', messages().limit(DELETE_CHUNK)));
  await drain(() =>
    db
      .deleteFrom('held_messages')
      .where('id', 'in', db.selectFrom('held_messages').select('id').where('account_id', '=', accountId).limit(DELETE_CHUNK)),
  );
  await drain(() =>
    db
      .deleteFrom('contacts')
      .where('id', 'in', db.selectFrom('contacts').select('id').where('account_id', '=', accountId).limit(DELETE_CHUNK)),
  );
}

/** Runs a chunk's delete until one deletes less than a chunk, yielding the thread between two. */
async function drain(chunk: () => { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }): Promise<void> {
  for (;;) {
    const { numDeletedRows } = await chunk().executeTakeFirst();
    if (numDeletedRows < BigInt(DELETE_CHUNK)) return;
    await nextTurn();
  }
}
