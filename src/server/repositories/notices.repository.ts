import type { Insertable, Kysely, Selectable } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import type { Database, NoticesTable } from '../db/schema.ts';

/** Single mails that are not list posts, drained by the outbox worker like deliveries. */
export type NoticeRow = Selectable<NoticesTable>;

export async function insertNotices(
  db: Kysely<Database>,
  values: Insertable<NoticesTable>[],
): Promise<void> {
  if (values.length === 0) return;
  for (let start = 0; start < values.length; start += 500)
    await db
      .insertInto('notices')
      .values(values.slice(start, start + 500))
      .execute();
}

/**
 * Claims one due notice (pending → sending), leased until `leaseUntil` and committed before it is
 * sent; or takes over one whose worker's lease ran out (the worker died mid-send). As the outbox's
 * claim: the status and lease checks in the update make it one worker's (skip locked on PostgreSQL).
 */
export async function claimNotice(
  db: Kysely<Database>,
  now: number,
  leaseUntil: number,
): Promise<NoticeRow | null> {
  let next = db
    .selectFrom('notices')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_attempt', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('lease_until', '<=', now)]),
      ]),
    )
    .orderBy('id')
    .limit(1);
  if (dialectOf(db) === 'postgres') next = next.forUpdate().skipLocked();
  const row = await db
    .updateTable('notices')
    .set({ status: 'sending', lease_until: leaseUntil })
    .where('id', 'in', next)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'sending'), eb('lease_until', '<=', now)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** The worker sending notice `id` is alive: its lease runs until `leaseUntil`. */
export async function renewNoticeLease(
  db: Kysely<Database>,
  id: number,
  leaseUntil: number,
): Promise<void> {
  await db
    .updateTable('notices')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

export async function markNoticeSent(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('notices').set({ status: 'sent' }).where('id', '=', id).execute();
}

export async function markNoticeFailed(
  db: Kysely<Database>,
  id: number,
  next: { at: number; giveUp: boolean },
): Promise<void> {
  await db
    .updateTable('notices')
    .set((eb) => ({
      status: next.giveUp ? 'failed' : 'pending',
      attempts: eb('attempts', '+', 1),
      next_attempt: next.at,
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * The digest rows waiting, per list, with what each needs to render. On PostgreSQL they are locked
 * for the caller's transaction: a second `serve` collecting digests at the same moment waits, then
 * finds them done, instead of queueing every digest twice (SQLite has one writer).
 */
export function digestRows(db: Kysely<Database>) {
  const query = db
    .selectFrom('outbox')
    .innerJoin('messages', 'messages.id', 'outbox.message_id')
    .innerJoin('lists', 'lists.id', 'messages.list_id')
    .innerJoin('accounts', 'accounts.id', 'messages.account_id')
    .select([
      'outbox.id',
      'outbox.email_id',
      'outbox.address',
      'outbox.account_id',
      'messages.id as message_id',
      'messages.subject',
      'messages.from_phrase',
      'messages.from_address',
      'messages.time',
      'messages.content_plain',
      'lists.id as list_id',
      'lists.name as list_name',
      'lists.settings as list_settings',
      'accounts.domain',
    ])
    .where('outbox.status', '=', 'digest')
    .orderBy('messages.time')
    .orderBy('messages.id');
  return (dialectOf(db) === 'postgres' ? query.forUpdate('outbox') : query).execute();
}

/** Digest rows whose digest notice is queued: done, in the transaction that queued it. */
export async function markDigested(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    await db
      .updateTable('outbox')
      .set({ status: 'sent' })
      .where('id', 'in', ids.slice(start, start + 500))
      .where('status', '=', 'digest')
      .execute();
  }
}

/**
 * The addresses of the account's administrators who sign in (their username is an address) and
 * whose JSON array `column` holds `value`.
 */
async function signInAddressesWith(
  db: Kysely<Database>,
  accountId: number,
  column: 'notifications' | 'permissions',
  value: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('administrators')
    .select(['username', column])
    .where('account_id', '=', accountId)
    .where('username', 'is not', null)
    .execute();
  return rows
    .filter((row) => {
      try {
        const values = JSON.parse(row[column]) as unknown;
        return Array.isArray(values) && values.includes(value);
      } catch {
        return false;
      }
    })
    .map((row) => row.username ?? '')
    .filter((username) => username.includes('@'));
}

/** The account's administrators who asked for approval notices (spec §2.6 `notifications`). */
export function approvalRecipients(db: Kysely<Database>, accountId: number): Promise<string[]> {
  return signInAddressesWith(db, accountId, 'notifications', 'approval');
}

/** The account's superadmins who sign in: postmaster@ mail goes to them. */
export function superadminAddresses(db: Kysely<Database>, accountId: number): Promise<string[]> {
  return signInAddressesWith(db, accountId, 'permissions', 'superadmin');
}
