import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The durable outbox (SECURITY.md 38): deliveries move pending → sending (claimed for one batch,
 * committed before the send) → sent (committed after it). Retries wait in `next_attempt`.
 */

export interface ClaimedDelivery {
  id: number;
  address: string;
}

/**
 * Claims up to `limit` due deliveries of one message for the batch `key`, in one statement: the
 * status check in the update means a row another worker claimed first is not claimed twice.
 * Answers the message and its rows, or null when nothing is due.
 */
export async function claimBatch(
  db: Kysely<Database>,
  now: number,
  limit: number,
  key: (messageId: number, firstId: number) => string,
): Promise<{ messageId: number; batch: string; rows: ClaimedDelivery[] } | null> {
  const first = await db
    .selectFrom('outbox')
    .select(['id', 'message_id'])
    .where('status', '=', 'pending')
    .where('next_attempt', '<=', now)
    .orderBy('message_id')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!first) return null;
  const batch = key(first.message_id, first.id);
  const candidates = db
    .selectFrom('outbox')
    .select('id')
    .where('message_id', '=', first.message_id)
    .where('status', '=', 'pending')
    .where('next_attempt', '<=', now)
    .orderBy('id')
    .limit(limit);
  const rows = await db
    .updateTable('outbox')
    .set({ status: 'sending', batch })
    .where('id', 'in', candidates)
    .where('status', '=', 'pending')
    .returning(['id', 'address'])
    .execute();
  return rows.length === 0 ? null : { messageId: first.message_id, batch, rows };
}

/** The batches a crash left in flight: sent again, whole, under their own keys. */
export async function inFlightBatches(
  db: Kysely<Database>,
): Promise<{ messageId: number; batch: string; rows: ClaimedDelivery[] }[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'address', 'batch', 'message_id'])
    .where('status', '=', 'sending')
    .orderBy('id')
    .execute();
  const batches = new Map<string, { messageId: number; batch: string; rows: ClaimedDelivery[] }>();
  for (const row of rows) {
    const batch = row.batch ?? `orphan-${row.id}`;
    const entry = batches.get(batch) ?? { messageId: row.message_id, batch, rows: [] };
    entry.rows.push({ id: row.id, address: row.address });
    batches.set(batch, entry);
  }
  return [...batches.values()];
}

export async function markBatchSent(db: Kysely<Database>, batch: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'sent' })
    .where('batch', '=', batch)
    .where('status', '=', 'sending')
    .execute();
}

/** A failed batch: back to pending after `delayMs`, or failed for good after the last attempt. */
export async function markBatchFailed(
  db: Kysely<Database>,
  batch: string,
  next: { at: number; giveUp: boolean },
): Promise<void> {
  await db
    .updateTable('outbox')
    .set((eb) => ({
      status: next.giveUp ? 'failed' : 'pending',
      batch: null,
      attempts: eb('attempts', '+', 1),
      next_attempt: next.at,
    }))
    .where('batch', '=', batch)
    .where('status', '=', 'sending')
    .execute();
}

/** How many attempts the batch's rows have had (the same for all: they move together). */
export async function batchAttempts(db: Kysely<Database>, batch: string): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.max('attempts').as('attempts'))
    .where('batch', '=', batch)
    .executeTakeFirst();
  return Number(row?.attempts ?? 0);
}

/** What a fan-out renders from: the archived message, its list and account, its SMTP source. */
export function findPostForDelivery(db: Kysely<Database>, messageId: number) {
  return db
    .selectFrom('messages')
    .innerJoin('lists', 'lists.id', 'messages.list_id')
    .innerJoin('accounts', 'accounts.id', 'messages.account_id')
    .leftJoin('message_sources', 'message_sources.message_id', 'messages.id')
    .select([
      'messages.id',
      'messages.subject',
      'messages.from_phrase',
      'messages.from_address',
      'messages.message_id',
      'messages.content_plain',
      'messages.content_html',
      'lists.name as list_name',
      'lists.settings as list_settings',
      'accounts.domain',
      'message_sources.raw as source',
    ])
    .where('messages.id', '=', messageId)
    .executeTakeFirst();
}

export async function saveSource(
  db: Kysely<Database>,
  messageId: number,
  raw: Buffer,
): Promise<void> {
  await db
    .insertInto('message_sources')
    .values({ message_id: messageId, raw: raw.toString('base64') })
    .execute();
}

/** Counts by status, for tests and the bench. */
export async function outboxCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('outbox')
    .select(['status', sql<number | string>`count(*)`.as('count')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}
