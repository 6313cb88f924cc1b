import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CostMeter } from '../http/charged-run.ts';
import { PAGE_LIMITS } from '../../api/constants.ts';
import { htmlToPlain, plainToHtml } from '../../api/message-content.ts';
import type {
  Message,
  MessageImage,
  MessagePage,
  MessageQuery,
  MessageSend,
} from '../../api/schemas/message.ts';
import { listLimit, visibleListNames, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { HttpError, badRequest, notFound } from '../http/http-error.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { findListByName } from '../repositories/lists.repository.ts';
import { toMessage } from '../repositories/messages.mapper.ts';
import {
  countMessages,
  deleteMessageRow,
  findMessage,
  insertMessage,
  pageMessages,
  queueDeliveries,
  setThread,
} from '../repositories/messages.repository.ts';
import { fetchMessageImage, RemoteImageError } from '../../gateway/remote-image.ts';
import { pathId } from './path-id.ts';

/** The host part of generated Message-IDs (RFC 5322 msg-id: `<left@right>`). */
export const MESSAGE_ID_DOMAIN = 'listkeeper.local';

/** Spec §4.5 get many: `limit` default 10 (max 100, checked by the contract), newest first by default. */
export async function getMessages(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  query: MessageQuery,
  meter: CostMeter,
): Promise<MessagePage> {
  const page = query.page ?? 1;
  const limit = query.limit ?? PAGE_LIMITS.messages.default;
  const lists = visibleListNames(principal);
  const count = await countMessages(db, accountId, lists);
  const offset = (page - 1) * limit;
  // SECURITY.md 30: the page's most (its limit, or the messages past its offset), before it is read.
  await meter.reserveUpTo(Math.min(limit, Math.max(0, count - offset)));
  // A page past the end is empty; asking the database for it could overflow OFFSET.
  const rows =
    offset >= count
      ? []
      : await pageMessages(db, accountId, lists, {
          offset,
          limit,
          direction: query.direction ?? 'desc',
        });
  return { count, page, data: rows.map(toMessage) };
}

export async function getMessage(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  idText: string,
): Promise<Message> {
  return toMessage(await visibleMessage(db, accountId, principal, idText));
}

/**
 * Spec §4.5 send: the list must exist; posting restrictions do not apply (the §4.5 rule). The
 * message is archived and one pending delivery is queued per member address, paused ones skipped,
 * in the route's transaction: either both happen or neither. Answers the archived message's id.
 */
export async function sendMessage(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  input: MessageSend,
  now: Date,
): Promise<number> {
  const limit = listLimit(principal);
  // A list outside a limited key's lists is as absent as an unknown one (SECURITY.md 33).
  const list =
    limit && !limit.has(input.list) ? undefined : await findListByName(db, account.id, input.list);
  if (!list) throw badRequest(`list: no list named ${input.list} in this account`);

  let threadId: number | null = null;
  let parentId: number | null = null;
  if (input.parent !== undefined) {
    const parent = await findMessage(db, account.id, pathId(input.parent) ?? 0, null);
    if (!parent || parent.list_id !== list.id) {
      throw badRequest(`parent: no message ${String(input.parent)} in list ${list.name}`);
    }
    parentId = parent.id;
    threadId = parent.thread_id;
  }

  // The contract guarantees one of the two; each is derived from the other when absent.
  const plain = input.content_plain || htmlToPlain(input.content_html ?? '');
  const html = input.content_html || plainToHtml(plain);
  const id = await insertMessage(db, {
    account_id: account.id,
    list_id: list.id,
    subject: input.subject ?? '',
    from_phrase: input.from_phrase ?? '',
    // Sent through the API, without a sender: the list speaks for itself.
    from_address: input.from_address ?? `${list.name}@${account.domain ?? MESSAGE_ID_DOMAIN}`,
    time: Math.floor(now.getTime() / 1000),
    message_id: `<${randomUUID()}@${MESSAGE_ID_DOMAIN}>`,
    thread_id: threadId ?? 0,
    parent_id: parentId,
    content_plain: plain,
    content_html: html,
  });
  if (threadId === null) await setThread(db, id, id);
  await queueDeliveries(db, {
    accountId: account.id,
    messageId: id,
    listId: list.id,
    created: now.toISOString(),
  });
  return id;
}

export async function deleteMessage(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  idText: string,
): Promise<void> {
  const message = await visibleMessage(db, accountId, principal, idText);
  await deleteMessageRow(db, accountId, message.id, message.parent_id);
}

/**
 * Reference-server extension `messages.image`: one remote image of a message as a `data:` URL
 * (SECURITY.md 13, 24), by the rules the gateway's image proxy follows too (src/gateway).
 */
export async function getMessageImage(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  idText: string,
  url: string,
  options: { allowPrivate: boolean },
): Promise<MessageImage> {
  const message = await visibleMessage(db, accountId, principal, idText);
  try {
    return await fetchMessageImage(message.content_html, url, options);
  } catch (error) {
    if (!(error instanceof RemoteImageError)) throw error;
    // Refused: the request is not allowed (400). Failed: the remote host did not deliver (502).
    if (error.kind === 'refused') throw badRequest(`url: ${error.message}`);
    throw new HttpError(502, `The image could not be fetched: ${error.message}`);
  }
}

async function visibleMessage(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  idText: string,
) {
  const id = pathId(idText);
  const row =
    id === null ? undefined : await findMessage(db, accountId, id, visibleListNames(principal));
  if (!row) throw notFound('Message');
  return row;
}

/** Service identifiers are positive integers; anything else names no message. */
