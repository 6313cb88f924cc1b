import type { Kysely } from 'kysely';
import { oneLine, senderNotice } from '../../api/posting-policy/notice.ts';
import { EmailAddress } from '../../api/primitives.ts';
import type { Database } from '../db/schema.ts';
import {
  approvalRecipients,
  insertNotices,
  superadminAddresses,
} from '../repositories/notices.repository.ts';
import { resolveRecipient } from './recipient.ts';
import type { MailingList } from './render.ts';

/**
 * The single mails the pipeline and the held queue queue (in the caller's transaction, so a notice
 * goes out exactly when what it tells of happened): sent by the outbox worker.
 */

function row(
  accountId: number,
  kind: string,
  list: Pick<MailingList, 'address'>,
  to: string,
  subject: string,
  body: string,
  now: Date,
) {
  return {
    account_id: accountId,
    kind,
    from_address: list.address,
    to_address: to,
    subject,
    body,
    list_address: list.address,
    created: now.toISOString(),
  };
}

/**
 * Whether a notice may go to `to`: never to an address this server takes mail for (a list, its
 * bounces, postmaster: issue 28, a list's reject notice went to the list itself), where it would
 * come back in as mail, and never to nobody.
 */
async function mayNotify(db: Kysely<Database>, to: string): Promise<boolean> {
  if (to.trim() === '') return false;
  return (await resolveRecipient(db, to.trim())).kind === 'unknown';
}

/**
 * Spec §2.4 hold_message / reject_message to the sender, $SUBJECT and $LISTNAME filled. A
 * moderator's reason for a rejection follows the list's message.
 */
export async function queueSenderNotice(
  db: Kysely<Database>,
  accountId: number,
  list: MailingList,
  kind: 'hold' | 'reject',
  to: string,
  subject: string,
  now: Date,
  reason?: string,
): Promise<void> {
  if (!(await mayNotify(db, to))) return;
  const notice = senderNotice(kind, list.settings, { subject, listAddress: list.address });
  const body = reason ? `${notice.body}\n\n${reason}` : notice.body;
  await insertNotices(db, [row(accountId, kind, list, to, notice.subject, body, now)]);
}

/**
 * Spec §2.4 notify_approval: the list manager hears of a held message: the list's `moderator`
 * when set, else the account's administrators who take approval notices (§2.6 notifications).
 */
export async function queueModeratorNotice(
  db: Kysely<Database>,
  accountId: number,
  list: MailingList,
  held: { id: number; subject: string; from: string; reason: string },
  now: Date,
): Promise<void> {
  const moderator = list.settings.moderator.trim();
  // An address, as writes require (SECURITY.md 37); a value stored before that is not used.
  const named = EmailAddress.safeParse(moderator).success
    ? [moderator]
    : await approvalRecipients(db, accountId);
  const recipients: string[] = [];
  for (const to of named) if (await mayNotify(db, to)) recipients.push(to);
  const subject = `A message to ${list.address} is held for approval`;
  // Each quoted value on its line (issue 28: a subject with CR/LF, encoded in the header, wrote
  // lines of its own into the notice, a "Why:" among them).
  const body = [
    `A message to ${list.address} is waiting for a moderator.`,
    '',
    `From: ${oneLine(held.from)}`,
    `Subject: ${oneLine(held.subject)}`,
    `Why: ${oneLine(held.reason)}`,
    '',
    `Review it on the Held page of the dashboard (held message ${held.id}).`,
  ].join('\n');
  await insertNotices(
    db,
    recipients.map((to) => row(accountId, 'moderator', list, to, subject, body, now)),
  );
}

/**
 * A message to postmaster@ (postmaster.ts), to each superadmin of the account who signs in with
 * an address, from postmaster@ itself; answers how many.
 */
export async function queuePostmasterForward(
  db: Kysely<Database>,
  accountId: number,
  postmaster: string,
  forward: { subject: string; body: string },
  now: Date,
): Promise<number> {
  const recipients: string[] = [];
  for (const to of await superadminAddresses(db, accountId))
    if (await mayNotify(db, to)) recipients.push(to);
  await insertNotices(
    db,
    recipients.map((to) => ({
      account_id: accountId,
      kind: 'postmaster',
      from_address: postmaster,
      to_address: to,
      subject: forward.subject,
      body: forward.body,
      list_address: null,
      created: now.toISOString(),
    })),
  );
  return recipients.length;
}

/** Spec §2.4 welcome_message: sent to a new member's addresses when the list has one. */
export async function queueWelcome(
  db: Kysely<Database>,
  accountId: number,
  list: MailingList,
  addresses: readonly string[],
  now: Date,
): Promise<void> {
  const body = list.settings.welcome_message;
  if (body.trim() === '') return;
  const subject = list.settings.welcome_message_subject || `Welcome to ${list.address}`;
  await insertNotices(
    db,
    addresses.map((to) =>
      row(accountId, 'welcome', list, to, subject.replace(/[\r\n]+/g, ' '), body, now),
    ),
  );
}
