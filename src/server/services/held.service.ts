import type { Kysely } from 'kysely';
import type { CostMeter } from '../http/charged-run.ts';
import type {
  HeldAction,
  HeldBulk,
  HeldMessageDetail,
  HeldOutcome,
  HeldPage,
  HeldQuery,
  HeldSource,
} from '../../api/schemas/held.ts';
import { HELD_PAGE_LIMITS } from '../../api/schemas/held.ts';
import { visibleListNames, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/http-error.ts';
import { automatedMarker } from '../../api/posting-policy/message.ts';
import { plainToHtml } from '../../api/message-content.ts';
import { acceptMail } from '../mail/accept.ts';
import { loadHeldContent } from '../mail/held-content.ts';
import { listAddressOf } from '../mail/list-address.ts';
import { queueSenderNotice } from '../mail/notices.ts';
import { findListByName } from '../repositories/lists.repository.ts';
import { settingsOf } from '../repositories/lists.mapper.ts';
import { saveSource } from '../repositories/outbox.repository.ts';
import { readAuthentication } from '../mail/received-authentication.ts';
import { messageIdsIn } from '../mail/message-ids.ts';
import { heldRecord } from '../audit/queue-records.ts';
import { recordAudit } from '../audit/record.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import {
  storedHeaders,
  toHeldDetail,
  toHeldMessage,
  type HeldDetailRow,
} from '../repositories/held.mapper.ts';
import {
  countHeld,
  countHeldPerList,
  deleteHeld,
  findHeld,
  pageHeld,
} from '../repositories/held.repository.ts';
import { pathId } from './path-id.ts';

export async function listHeld(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  query: HeldQuery,
  meter: CostMeter,
): Promise<HeldPage> {
  const page = query.page ?? 1;
  const limit = query.limit ?? HELD_PAGE_LIMITS.default;
  const lists = visibleListNames(principal);
  const [count, perList] = await Promise.all([
    countHeld(db, accountId, lists, query.list),
    countHeldPerList(db, accountId, lists),
  ]);
  const offset = (page - 1) * limit;
  // SECURITY.md 30: the page's most (its limit, or the messages past its offset), before it is read.
  await meter.reserveUpTo(Math.min(limit, Math.max(0, count - offset)));
  const rows =
    offset >= count
      ? []
      : await pageHeld(db, accountId, lists, { offset, limit, list: query.list });
  return { count, page, data: rows.map(toHeldMessage), lists: perList };
}

export async function getHeld(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  idText: string,
): Promise<HeldMessageDetail> {
  const id = pathId(idText);
  const [row] = id === null ? [] : await findHeld(db, accountId, [id], visibleListNames(principal));
  if (!row) throw notFound('Held message');
  return toHeldDetail(row, await loadHeldContent(row));
}

/**
 * The message as it arrived, for a moderator who wants every byte (issue 27 item 3): read as UTF-8
 * (mail is 7-bit or UTF-8 nearly always; a stray byte shows as U+FFFD, never fails the page).
 */
export async function getHeldSource(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  idText: string,
): Promise<HeldSource> {
  const id = pathId(idText);
  const [row] = id === null ? [] : await findHeld(db, accountId, [id], visibleListNames(principal));
  if (!row) throw notFound('Held message');
  const { raw } = await loadHeldContent(row);
  return { id: row.id, source: new TextDecoder().decode(raw) };
}

/** One action on one held message; an id the caller may not see is as absent as a missing one. */
export async function actOnHeld(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idText: string,
  action: HeldAction,
  now: Date,
  reason?: string,
): Promise<HeldOutcome> {
  const id = pathId(idText);
  const [row] =
    id === null ? [] : await findHeld(db, account.id, [id], visibleListNames(principal));
  if (!row) throw notFound('Held message');
  const [outcome] = await settle(db, account, [row], action, reason, now);
  if (!outcome) throw notFound('Held message');
  return outcome;
}

/** One action on several held messages, all or none (the route's transaction). */
export async function actOnHeldBulk(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  input: HeldBulk,
  now: Date,
): Promise<{ results: HeldOutcome[] }> {
  const ids: number[] = [];
  for (const value of input.ids) {
    const id = pathId(value);
    if (id === null) throw badRequest(`ids: no held message ${String(value)}`);
    if (!ids.includes(id)) ids.push(id);
  }
  const rows = await findHeld(db, account.id, ids, visibleListNames(principal));
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw badRequest(`ids: no held message ${missing.join(', ')}`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
  return { results: await settle(db, account, ordered, input.action, input.reason, now) };
}

/**
 * Takes the messages out of the queue and does what the action says: approve archives and sends
 * (as an accepted message is); reject and discard send nothing to the list. A message another
 * moderator settled in the meantime is a conflict, so nothing is done twice.
 */
async function settle(
  db: Kysely<Database>,
  account: AccountRow,
  rows: HeldDetailRow[],
  action: HeldAction,
  reason: string | undefined,
  now: Date,
): Promise<HeldOutcome[]> {
  const removed = new Set(
    await deleteHeld(
      db,
      account.id,
      rows.map((row) => row.id),
    ),
  );
  if (removed.size !== rows.length)
    throw conflict('A held message was settled by someone else meanwhile');
  const outcomes: HeldOutcome[] = [];
  for (const row of rows) {
    let message: number | null = null;
    if (action === 'approve') {
      const content = await loadHeldContent(row);
      const headers = storedHeaders(row);
      const header = (name: string) =>
        headers.filter((field) => field.name.toLowerCase() === name).map((field) => field.value);
      message = await acceptMail(
        db,
        account.id,
        row.list_id,
        {
          subject: row.subject,
          fromPhrase: row.from_phrase,
          fromAddress: row.from_address,
          messageId: row.message_id,
          answers: [
            ...header('in-reply-to').flatMap((value) => messageIdsIn(value)),
            ...header('references').flatMap((value) => messageIdsIn(value).reverse()),
          ],
          contentPlain: content.plain,
          // Spec §4.5: generated when the message had none.
          contentHtml: content.html || plainToHtml(content.plain),
          // Issue 26 item 2: what the verification found at receipt goes out with it.
          received: readAuthentication(row.received_authentication),
        },
        now,
      );
      await saveSource(db, message, content.raw);
    }
    if (action === 'reject') await tellRejected(db, account, row, reason, now);
    outcomes.push({ id: row.id, action, message });
  }
  // Issue 26 item 4: one entry per message, in the transaction that settles it.
  await recordAudit(
    db,
    now,
    rows.map((row, at) =>
      heldRecord(account.id, row, action, outcomes[at] ?? { message: null }, reason),
    ),
  );
  return outcomes;
}

/**
 * A rejected message's sender gets the list's reject message (spec §2.4, with the moderator's
 * reason) when the list sends reject messages or the moderator gave a reason; never a program
 * (RFC 3834: no answer to automated mail), and never a From address the message did not
 * authenticate for (issue 28: a notice to a forged sender is backscatter).
 */
async function tellRejected(
  db: Kysely<Database>,
  account: AccountRow,
  row: HeldDetailRow,
  reason: string | undefined,
  now: Date,
): Promise<void> {
  if (!row.answerable) return;
  const list = await findListByName(db, account.id, row.list);
  if (!list) return;
  const settings = settingsOf(list);
  if (!settings.send_reject_message && !reason) return;
  const automated = automatedMarker({
    from: { address: row.from_address },
    subject: row.subject,
    headers: storedHeaders(row),
    body: '',
    size: 0,
  });
  if (automated !== null) return;
  await queueSenderNotice(
    db,
    account.id,
    { name: list.name, address: listAddressOf(list.name, account.domain), settings },
    'reject',
    row.from_address,
    row.subject,
    now,
    reason,
  );
}

/** Service identifiers are positive integers; anything else names no held message. */
