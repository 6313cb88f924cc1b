import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import type { Database, EmailBouncesTable } from '../db/schema.ts';

/** An address's bounce state (migration 2026-11-29T0800). */
export type BounceRow = Selectable<EmailBouncesTable>;

/**
 * Takes the address's bounce state for the caller's transaction: two bounces for it at once (two
 * SMTP sessions, a refusal and a DSN) must not both count on the same day. PostgreSQL locks the
 * address row; SQLite's transaction takes the write lock with a write that changes nothing.
 */
export async function lockBounceState(db: Kysely<Database>, emailId: number): Promise<void> {
  if (dialectOf(db) !== 'postgres') {
    await sql`delete from email_bounces where 0`.execute(db);
    return;
  }
  await db.selectFrom('emails').select('id').where('id', '=', emailId).forUpdate().execute();
}

export function findBounceState(
  db: Kysely<Database>,
  emailId: number,
): Promise<BounceRow | undefined> {
  return db
    .selectFrom('email_bounces')
    .selectAll()
    .where('email_id', '=', emailId)
    .executeTakeFirst();
}

/** Writes the whole state of one address, made or replaced. */
export async function saveBounceState(
  db: Kysely<Database>,
  state: Insertable<EmailBouncesTable>,
): Promise<void> {
  const { email_id: _key, ...changes } = state;
  await db
    .insertInto('email_bounces')
    .values(state)
    .onConflict((conflict) => conflict.column('email_id').doUpdateSet(changes))
    .execute();
}

export async function deleteBounceState(db: Kysely<Database>, emailId: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('email_bounces')
    .where('email_id', '=', emailId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** The list's delivery to the address failed for the current score. */
export async function noteBounceList(
  db: Kysely<Database>,
  emailId: number,
  listId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('email_bounce_lists')
    .values({ email_id: emailId, list_id: listId, counted_at: at })
    .onConflict((conflict) =>
      conflict.columns(['email_id', 'list_id']).doUpdateSet({ counted_at: at }),
    )
    .execute();
}

/** A score that starts again forgets the lists of the old one. */
export async function forgetBounceLists(db: Kysely<Database>, emailId: number): Promise<void> {
  await db.deleteFrom('email_bounce_lists').where('email_id', '=', emailId).execute();
}

/** The lists whose deliveries to each address failed, by name, the latest first. */
export async function bounceListsOf(
  db: Kysely<Database>,
  emailIds: readonly number[],
): Promise<Map<number, { id: number; name: string }[]>> {
  const lists = new Map<number, { id: number; name: string }[]>();
  if (emailIds.length === 0) return lists;
  const rows = await db
    .selectFrom('email_bounce_lists')
    .innerJoin('lists', 'lists.id', 'email_bounce_lists.list_id')
    .select(['email_bounce_lists.email_id', 'lists.id', 'lists.name'])
    .where('email_bounce_lists.email_id', 'in', emailIds)
    .orderBy('email_bounce_lists.counted_at', 'desc')
    .orderBy('lists.name')
    .execute();
  for (const row of rows) {
    const of = lists.get(row.email_id) ?? [];
    of.push({ id: row.id, name: row.name });
    lists.set(row.email_id, of);
  }
  return lists;
}

/**
 * The addresses bounces paused that the timer owes a warning or their removal by `now`, a few at
 * a time (a sweep's work is bounded; the next sweep takes the rest).
 */
export function bouncesDue(
  db: Kysely<Database>,
  now: string,
  limit: number,
): Promise<{ email_id: number }[]> {
  return db
    .selectFrom('email_bounces')
    .select('email_id')
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .orderBy('email_id')
    .limit(limit)
    .execute();
}

/** The address a paused bounce state is about: the timer's warning goes to it. */
export function findBouncedAddress(
  db: Kysely<Database>,
  emailId: number,
): Promise<{ email: string; contact_id: number; paused: number } | undefined> {
  return db
    .selectFrom('emails')
    .select(['email', 'contact_id', 'paused'])
    .where('id', '=', emailId)
    .executeTakeFirst();
}

/** Another address of the contact still receives mail: the membership serves it too. */
export async function contactHasAnotherReceivingAddress(
  db: Kysely<Database>,
  contactId: number,
  emailId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('emails')
    .select('id')
    .where('contact_id', '=', contactId)
    .where('id', '!=', emailId)
    .where('paused', '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Forgets the addresses that bounce no more: no pause, and the last bounce older than `before`
 * (their score would start again anyway). Answers how many.
 */
export async function purgeStaleBounces(db: Kysely<Database>, before: string): Promise<number> {
  const deleted = await db
    .deleteFrom('email_bounces')
    .where('paused_at', 'is', null)
    .where('last_at', '<', before)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** Which addresses a page of bounce states covers (extension `bounces.list`). */
export interface BounceFilters {
  accountId: number;
  /** The members of this list only. */
  listId?: number | undefined;
  /** The addresses of this contact only. */
  contactId?: number | undefined;
  /** A list-limited key: the members of these lists only (spec §2.6 limit_lists). */
  visibleListIds: readonly number[] | null;
}

function filtered(db: Kysely<Database>, filters: BounceFilters) {
  let query = db
    .selectFrom('email_bounces')
    .innerJoin('emails', 'emails.id', 'email_bounces.email_id')
    .where('email_bounces.account_id', '=', filters.accountId);
  if (filters.contactId !== undefined)
    query = query.where('emails.contact_id', '=', filters.contactId);
  const { listId, visibleListIds } = filters;
  if (listId !== undefined)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('memberships')
          .select('memberships.id')
          .whereRef('memberships.contact_id', '=', 'emails.contact_id')
          .where('memberships.list_id', '=', listId),
      ),
    );
  if (visibleListIds !== null)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('memberships')
          .select('memberships.id')
          .whereRef('memberships.contact_id', '=', 'emails.contact_id')
          .where('memberships.list_id', 'in', visibleListIds.length > 0 ? [...visibleListIds] : [0]),
      ),
    );
  return query;
}

export async function countBounceStates(
  db: Kysely<Database>,
  filters: BounceFilters,
): Promise<number> {
  const row = await filtered(db, filters)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of bounce states: the paused first, then the latest bounce first. */
export function pageBounceStates(
  db: Kysely<Database>,
  filters: BounceFilters,
  page: { offset: number; limit: number },
) {
  return filtered(db, filters)
    .innerJoin('contacts', 'contacts.id', 'emails.contact_id')
    .selectAll('email_bounces')
    .select(['emails.email as address', 'emails.contact_id', 'contacts.ccid as contact_ccid'])
    .orderBy(sql`case when email_bounces.paused_at is null then 1 else 0 end`)
    .orderBy('email_bounces.last_at', 'desc')
    .orderBy('email_bounces.email_id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}
