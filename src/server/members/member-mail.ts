import type { Kysely } from 'kysely';
import { oneLine } from '../../api/posting-policy/notice.ts';
import type { Database } from '../db/schema.ts';
import { notificationRecipients } from '../repositories/member-directory.repository.ts';
import { insertNotices } from '../repositories/notices.repository.ts';
import { commandAddress } from './links.ts';
import type { PublicList } from './public-list.ts';

/**
 * The mails of joining and leaving (issue 25), queued in the caller's transaction like every
 * notice (a mail goes out exactly when what it tells of happened). Plain text, from the list's
 * `-request` address, so that a reply reaches the list's commands and never the members. Every
 * value a mail quotes from outside is one line (SECURITY.md 37).
 */
type NoticeKind = 'confirm' | 'member' | 'welcome' | 'subscription';

interface Mail {
  to: string;
  subject: string;
  body: string;
  replyTo?: string;
}

async function queue(
  db: Kysely<Database>,
  list: PublicList,
  kind: NoticeKind,
  mails: readonly Mail[],
  now: Date,
): Promise<void> {
  await insertNotices(
    db,
    mails.map((mail) => ({
      account_id: list.accountId,
      kind,
      from_address: commandAddress(list.address, 'request'),
      to_address: mail.to,
      subject: oneLine(mail.subject),
      body: mail.body,
      list_address: list.address,
      reply_to: mail.replyTo ?? null,
      created: now.toISOString(),
    })),
  );
}

const IGNORE =
  'If you did not ask for this, ignore this mail: nothing changes without your confirmation.';

/** Spec §2.4 confirmation_subject/confirmation_message (else the account's, §2.7, else ours). */
export async function queueConfirmation(
  db: Kysely<Database>,
  list: PublicList,
  input: { kind: 'join' | 'leave'; to: string; link: string; token: string; validDays: number },
  now: Date,
): Promise<void> {
  const joining = input.kind === 'join';
  const ownSubject = list.settings.confirmation_subject || list.account.confirmation_subject;
  const ownMessage = list.settings.confirmation_message || list.account.confirmation_message;
  // The list's own words are for joining; leaving is always said plainly.
  const subject =
    joining && ownSubject
      ? ownSubject
      : `${joining ? 'Confirm joining' : 'Confirm leaving'} ${list.address}`;
  const intro =
    joining && ownMessage.trim() !== ''
      ? ownMessage.trim()
      : joining
        ? `Someone, probably you, asked for ${input.to} to join the list ${list.address}.`
        : `Someone, probably you, asked for ${input.to} to leave the list ${list.address}.`;
  const body = [
    intro,
    '',
    `To ${joining ? 'join' : 'leave'}, open this link and press the button on the page:`,
    input.link,
    '',
    'Or reply to this mail without changing anything.',
    '',
    `The link works once, for ${input.validDays} days.`,
    IGNORE,
  ].join('\n');
  await queue(
    db,
    list,
    'confirm',
    [
      {
        to: input.to,
        subject,
        body,
        replyTo: commandAddress(list.address, `confirm+${input.token}`),
      },
    ],
    now,
  );
}

/** A request to join from an address that is already a member: said to it, nothing changes. */
export async function queueAlreadyMember(
  db: Kysely<Database>,
  list: PublicList,
  to: string,
  memberPage: string,
  now: Date,
): Promise<void> {
  const body = [
    `Someone, probably you, asked for ${to} to join the list ${list.address}.`,
    '',
    'This address is a member already, so nothing has changed.',
    '',
    'To choose a digest, pause your mail or leave, open your page:',
    memberPage,
  ].join('\n');
  await queue(db, list, 'member', [{ to, subject: `You are a member of ${list.address}`, body }], now);
}

/** A request to leave from an address that is no member: said to it, nothing changes. */
export async function queueNotAMember(
  db: Kysely<Database>,
  list: PublicList,
  to: string,
  listPage: string,
  now: Date,
): Promise<void> {
  const body = [
    `Someone, probably you, asked for ${to} to leave the list ${list.address}.`,
    '',
    'This address is not a member, so nothing has changed. If you receive the list at another',
    'address, ask again with that one:',
    listPage,
  ].join('\n');
  await queue(
    db,
    list,
    'member',
    [{ to, subject: `You are not a member of ${list.address}`, body }],
    now,
  );
}

/** The member's own page, asked for from the list's page by address (mailed, never shown). */
export async function queueMemberPageLink(
  db: Kysely<Database>,
  list: PublicList,
  to: string,
  link: string,
  validDays: number,
  now: Date,
): Promise<void> {
  const body = [
    `Here is the page where ${to} manages its membership of ${list.address}: a digest, a pause, or leaving.`,
    '',
    link,
    '',
    `The link is yours alone and works for ${validDays} days. Do not forward this mail.`,
    "If you did not ask for it, ignore this mail: nobody else receives the link.",
  ].join('\n');
  await queue(
    db,
    list,
    'member',
    [{ to, subject: `Your membership of ${list.address}`, body }],
    now,
  );
}

/**
 * Spec §2.7 send_welcome_message_confirmation: a member who joined by confirming gets the list's
 * welcome message (§2.4), else the account's.
 */
export async function queueWelcomeAfterConfirmation(
  db: Kysely<Database>,
  list: PublicList,
  to: string,
  now: Date,
): Promise<void> {
  if (!list.account.send_welcome_message_confirmation) return;
  const body = welcomeText(list);
  if (body === '') return;
  const subject = list.settings.welcome_message_subject || `Welcome to ${list.address}`;
  await queue(db, list, 'welcome', [{ to, subject, body }], now);
}

/** What a new member reads on the page and in the welcome mail: the list's, else the account's. */
export function welcomeText(list: PublicList): string {
  return (list.settings.welcome_message || list.account.welcome_message).trim();
}

/** What the requester is told of a moderator's decision, or of a request by mail that now waits. */
export async function queueRequestOutcome(
  db: Kysely<Database>,
  list: PublicList,
  input: {
    to: string;
    kind: 'join' | 'leave';
    outcome: 'approved' | 'rejected' | 'waiting' | 'done';
    reason?: string;
  },
  now: Date,
): Promise<void> {
  const what = input.kind === 'join' ? 'join' : 'leave';
  const lines: Record<typeof input.outcome, [string, string]> = {
    approved: [
      `Your request to ${what} ${list.address} is approved`,
      input.kind === 'join'
        ? `A moderator approved your request: ${input.to} is now a member of ${list.address}.`
        : `A moderator approved your request: ${input.to} has left ${list.address}.`,
    ],
    rejected: [
      `Your request to ${what} ${list.address} is declined`,
      `A moderator declined your request for ${input.to} to ${what} ${list.address}.`,
    ],
    waiting: [
      `Your request to ${what} ${list.address} waits for a moderator`,
      `Thank you for confirming. This list's moderators approve each request to ${what}; you will hear from us when one has.`,
    ],
    done: [
      input.kind === 'join' ? `Welcome to ${list.address}` : `You have left ${list.address}`,
      input.kind === 'join'
        ? `${input.to} is now a member of ${list.address}.`
        : `${input.to} is no longer a member of ${list.address}.`,
    ],
  };
  const [subject, text] = lines[input.outcome];
  const reason = input.reason?.trim() ? `\n\nThe moderator's reason:\n${input.reason.trim()}` : '';
  await queue(db, list, 'member', [{ to: input.to, subject, body: `${text}${reason}` }], now);
}

/**
 * Spec §2.6 `subscription` notifications: the administrators who take them hear of a request that
 * waits for a moderator and of every join and leave.
 */
export async function queueSubscriptionNotice(
  db: Kysely<Database>,
  list: PublicList,
  event: { kind: 'join' | 'leave'; address: string; what: 'waits' | 'done'; how: string },
  now: Date,
): Promise<void> {
  const recipients = await notificationRecipients(db, list.accountId, 'subscription', list.name);
  if (recipients.length === 0) return;
  const address = oneLine(event.address);
  const verb = event.kind === 'join' ? 'join' : 'leave';
  const subject =
    event.what === 'waits'
      ? `${address} asks to ${verb} ${list.address}`
      : `${address} ${event.kind === 'join' ? 'joined' : 'left'} ${list.address}`;
  const body =
    event.what === 'waits'
      ? [
          `${address} confirmed a request to ${verb} ${list.address} (${event.how}).`,
          '',
          'It waits for a moderator on the Requests page of the dashboard.',
        ].join('\n')
      : `${address} ${event.kind === 'join' ? 'joined' : 'left'} ${list.address} (${event.how}).`;
  await queue(
    db,
    list,
    'subscription',
    recipients.map((to) => ({ to, subject, body })),
    now,
  );
}

/** The answer to `help` by mail: how to join, leave and manage a membership of the list. */
export async function queueHelp(
  db: Kysely<Database>,
  list: PublicList,
  to: string,
  listPage: string,
  now: Date,
): Promise<void> {
  const body = [
    `How to use the list ${list.address}:`,
    '',
    `- To join, send any mail to ${commandAddress(list.address, 'join')}`,
    `- To leave, send any mail to ${commandAddress(list.address, 'leave')}`,
    `- Or write "subscribe" or "unsubscribe" as the subject of a mail to ${commandAddress(list.address, 'request')}`,
    '',
    'Each request is confirmed by a link mailed to the address it is for.',
    '',
    `The list's page, with the same and a page of your own: ${listPage}`,
  ].join('\n');
  await queue(db, list, 'member', [{ to, subject: `Help for ${list.address}`, body }], now);
}
