import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import {
  storedAuthentication,
  type ReceivedAuthentication,
} from '../mail/received-authentication.ts';

/**
 * The durable outbox (SECURITY.md 38): deliveries move pending → sending (claimed for one batch,
 * committed before the send) → sent (committed after it). Retries wait in `next_attempt`. A claim
 * is a lease (`lease_until`), renewed while its SMTP transaction runs: any number of workers on one
 * database each send a row at most once at a time, and a dead worker's rows are taken over when
 * its lease runs out.
 */

export interface ClaimedDelivery {
  id: number;
  /** The address row: a delivery's personal links name it (issue 25). */
  email_id: number;
  address: string;
  /** Attempts before this one. */
  attempts: number;
}

export interface ClaimedBatch {
  messageId: number;
  batch: string;
  rows: ClaimedDelivery[];
}

/**
 * Claims up to `limit` due deliveries of one message for the new batch `batch`, leased until
 * `leaseUntil`, in one statement. The status check in the update means a row another worker
 * claimed first is not claimed twice (SQLite: its single writer; PostgreSQL: the update re-checks a
 * row it waited for); on PostgreSQL `skip locked` lets a second worker take the next rows at once
 * instead of queueing behind the first. Answers null when nothing is due.
 */
export async function claimBatch(
  db: Kysely<Database>,
  now: number,
  limit: number,
  leaseUntil: number,
  key: (messageId: number) => string,
): Promise<ClaimedBatch | null> {
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
  const batch = key(first.message_id);
  let candidates = db
    .selectFrom('outbox')
    .select('id')
    .where('message_id', '=', first.message_id)
    .where('status', '=', 'pending')
    .where('next_attempt', '<=', now)
    .orderBy('id')
    .limit(limit);
  if (dialectOf(db) === 'postgres') candidates = candidates.forUpdate().skipLocked();
  const rows = await db
    .updateTable('outbox')
    .set({ status: 'sending', batch, lease_until: leaseUntil })
    .where('id', 'in', candidates)
    .where('status', '=', 'pending')
    .returning(['id', 'email_id', 'address', 'attempts'])
    .execute();
  return rows.length === 0 ? null : { messageId: first.message_id, batch, rows };
}

/**
 * Takes over one batch whose worker's lease ran out (it died mid-send: kill -9, power cut), leased
 * anew: it is sent again, whole, under its own key. A batch whose worker is alive is never taken:
 * that worker renews its lease until it has marked the batch sent or failed.
 */
export async function claimExpiredBatch(
  db: Kysely<Database>,
  now: number,
  leaseUntil: number,
): Promise<ClaimedBatch | null> {
  const stale = await db
    .selectFrom('outbox')
    .select(['batch', 'message_id'])
    .where('status', '=', 'sending')
    .where('lease_until', '<=', now)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!stale) return null;
  // A row claimed without a key (never written so; kept safe) becomes its own batch.
  const batch = stale.batch ?? `orphan-${stale.message_id}-${now}`;
  const rows = await db
    .updateTable('outbox')
    .set({ batch, lease_until: leaseUntil })
    .where((eb) => (stale.batch === null ? eb('batch', 'is', null) : eb('batch', '=', stale.batch)))
    .where('message_id', '=', stale.message_id)
    .where('status', '=', 'sending')
    .where('lease_until', '<=', now)
    .returning(['id', 'email_id', 'address', 'attempts'])
    .execute();
  return rows.length === 0 ? null : { messageId: stale.message_id, batch, rows };
}

/** The worker sending `batch` is alive: its lease runs until `leaseUntil`. */
export async function renewBatchLease(
  db: Kysely<Database>,
  batch: string,
  leaseUntil: number,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ lease_until: leaseUntil })
    .where('batch', '=', batch)
    .where('status', '=', 'sending')
    .execute();
}

export async function markBatchSent(db: Kysely<Database>, batch: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'sent' })
    .where('batch', '=', batch)
    .where('status', '=', 'sending')
    .execute();
}

/** What becomes of a delivery the relay did not take: retried at `at`, or failed for good. */
export interface Unsent {
  id: number;
  status: 'pending' | 'failed';
  at: number;
}

/**
 * Ends the batch's transaction in one database transaction: the `unsent` rows wait for their retry
 * or fail (their attempt counted), every other row of the batch is sent. Only rows still `sending`
 * under this key change: a row another worker settled stays as it is.
 */
export async function finishBatch(
  db: Kysely<Database>,
  batch: string,
  unsent: readonly Unsent[],
): Promise<void> {
  const groups = new Map<string, Unsent[]>();
  for (const row of unsent) {
    const key = `${row.status} ${row.at}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  await db.transaction().execute(async (trx) => {
    for (const rows of groups.values()) {
      const { status, at } = rows[0] as Unsent;
      for (let start = 0; start < rows.length; start += 500)
        await trx
          .updateTable('outbox')
          .set((eb) => ({
            status,
            batch: null,
            attempts: eb('attempts', '+', 1),
            next_attempt: at,
          }))
          .where(
            'id',
            'in',
            rows.slice(start, start + 500).map((row) => row.id),
          )
          .where('batch', '=', batch)
          .where('status', '=', 'sending')
          .execute();
    }
    await markBatchSent(trx, batch);
  });
}

/**
 * What a fan-out renders from: the archived message, its list and account, its SMTP source and what
 * its verification found.
 */
export function findPostForDelivery(db: Kysely<Database>, messageId: number) {
  return db
    .selectFrom('messages')
    .innerJoin('lists', 'lists.id', 'messages.list_id')
    .innerJoin('accounts', 'accounts.id', 'messages.account_id')
    .leftJoin('message_sources', 'message_sources.message_id', 'messages.id')
    .leftJoin('message_authentication', 'message_authentication.message_id', 'messages.id')
    .select([
      'messages.id',
      'messages.subject',
      'messages.from_phrase',
      'messages.from_address',
      'messages.message_id',
      'messages.content_plain',
      'messages.content_html',
      'lists.id as list_id',
      'lists.name as list_name',
      'lists.settings as list_settings',
      'accounts.domain',
      'accounts.settings as account_settings',
      'message_sources.raw as source',
      'message_authentication.received',
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

/** What sender verification found for an archived message (issue 26 item 2). */
export async function saveAuthentication(
  db: Kysely<Database>,
  messageId: number,
  received: ReceivedAuthentication,
): Promise<void> {
  await db
    .insertInto('message_authentication')
    .values({ message_id: messageId, received: storedAuthentication(received) })
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
