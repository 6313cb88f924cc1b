import type { Insertable, Kysely } from 'kysely';
import type { Database, MessagesTable } from '../db/schema.ts';
import type { MessageRow } from './messages.mapper.ts';

/** The account's messages with their list's name; `listNames` narrows to those lists (limit_lists). */
function messagesOf(db: Kysely<Database>, accountId: number, listNames: readonly string[] | null) {
  let query = db
    .selectFrom('messages')
    .innerJoin('lists', 'lists.id', 'messages.list_id')
    .where('messages.account_id', '=', accountId);
  if (listNames !== null) query = query.where('lists.name', 'in', listNames);
  return query;
}

const COLUMNS = [
  'messages.id',
  'lists.name as list',
  'messages.list_id',
  'messages.subject',
  'messages.from_phrase',
  'messages.from_address',
  'messages.time',
  'messages.message_id',
  'messages.thread_id',
  'messages.parent_id',
  'messages.content_plain',
  'messages.content_html',
] as const;

export async function countMessages(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
): Promise<number> {
  if (listNames !== null && listNames.length === 0) return 0;
  const row = await messagesOf(db, accountId, listNames)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page, ordered by time and then id (spec §4.5 "sorting by date"). */
export function pageMessages(
  db: Kysely<Database>,
  accountId: number,
  listNames: readonly string[] | null,
  page: { offset: number; limit: number; direction: 'asc' | 'desc' },
): Promise<MessageRow[]> {
  if (listNames !== null && listNames.length === 0) return Promise.resolve([]);
  return messagesOf(db, accountId, listNames)
    .select(COLUMNS)
    .orderBy('messages.time', page.direction)
    .orderBy('messages.id', page.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findMessage(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  listNames: readonly string[] | null,
): Promise<MessageRow | undefined> {
  if (listNames !== null && listNames.length === 0) return Promise.resolve(undefined);
  return messagesOf(db, accountId, listNames)
    .select(COLUMNS)
    .where('messages.id', '=', id)
    .executeTakeFirst();
}

export async function insertMessage(
  db: Kysely<Database>,
  values: Insertable<MessagesTable>,
): Promise<number> {
  const row = await db
    .insertInto('messages')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The list's messages with these RFC 5322 msg-ids (threading: In-Reply-To, References). */
export function findByMessageIds(
  db: Kysely<Database>,
  accountId: number,
  listId: number,
  messageIds: readonly string[],
): Promise<{ id: number; thread_id: number; message_id: string }[]> {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('messages')
    .select(['id', 'thread_id', 'message_id'])
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .where('message_id', 'in', messageIds)
    .orderBy('id')
    .execute();
}

/** A message that starts a thread is its own thread (spec §2.5 thread_id). */
export async function setThread(db: Kysely<Database>, id: number, threadId: number): Promise<void> {
  await db.updateTable('messages').set({ thread_id: threadId }).where('id', '=', id).execute();
}

/**
 * One pending delivery per member address of the list, paused addresses skipped, in one statement
 * whatever the list's size; the outbox worker (mail/outbox.ts) sends them.
 */
export async function queueDeliveries(
  db: Kysely<Database>,
  input: { accountId: number; messageId: number; listId: number; created: string },
): Promise<void> {
  await db
    .insertInto('outbox')
    .columns(['account_id', 'message_id', 'email_id', 'address', 'status', 'created'])
    .expression(
      db
        .selectFrom('memberships')
        .innerJoin('emails', 'emails.contact_id', 'memberships.contact_id')
        .select((eb) => [
          // Typed, so that PostgreSQL does not read the parameters as text.
          eb.cast<number>(eb.val(input.accountId), 'integer').as('account_id'),
          eb.cast<number>(eb.val(input.messageId), 'integer').as('message_id'),
          'emails.id as email_id',
          'emails.email as address',
          // Spec §2.3: the membership's digest overrides the address's; digest members wait
          // for the daily digest (mail/digest.ts) instead of a delivery of their own.
          eb
            .case()
            .when(eb.fn.coalesce('memberships.digest', 'emails.digest'), '=', 1)
            .then(eb.cast<string>(eb.val('digest'), 'text'))
            .else(eb.cast<string>(eb.val('pending'), 'text'))
            .end()
            .as('status'),
          eb.cast<string>(eb.val(input.created), 'text').as('created'),
        ])
        .where('memberships.list_id', '=', input.listId)
        .where('memberships.account_id', '=', input.accountId)
        .where('emails.paused', '=', 0)
        .orderBy('emails.id'),
    )
    .execute();
}

/** Replies to a deleted message hang from its parent instead, so a thread stays one tree. */
export async function deleteMessageRow(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  parentId: number | null,
): Promise<void> {
  await db
    .updateTable('messages')
    .set({ parent_id: parentId })
    .where('account_id', '=', accountId)
    .where('parent_id', '=', id)
    .execute();
  await db
    .deleteFrom('messages')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}
