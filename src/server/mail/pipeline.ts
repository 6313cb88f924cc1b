import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PostingDecision } from '../../api/posting-policy/types.ts';
import {
  receiveBounces,
  type BounceOutcome,
  type BounceRecipient,
  type BounceSetup,
} from '../bounces/receive.ts';
import { BOUNCE_DEFAULTS, type BounceSettings } from '../bounces/settings.ts';
import type { Database } from '../db/schema.ts';
import { accountSettingsOf } from '../repositories/accounts.mapper.ts';
import { settingsOf } from '../repositories/lists.mapper.ts';
import { senderKnowledge } from '../repositories/mail.repository.ts';
import { isHeldInList, lockInbound } from '../repositories/held.repository.ts';
import { findByMessageIds } from '../repositories/messages.repository.ts';
import { saveSource } from '../repositories/outbox.repository.ts';
import { acceptMail } from './accept.ts';
import { heldQueueFull, type HeldBounds } from './held-bounds.ts';
import type { StoredHeldContent } from './held-content.ts';
import { holdMail } from './hold.ts';
import type { InboundMessage } from './inbound-message.ts';
import type { InboundWork } from './inbound-work.ts';
import type { CommandAddress } from '../members/mail-commands.ts';
import {
  answerBareCommand,
  answerCommandMail,
  type CommandOutcome,
  type MembersSetup,
} from './mail-commands-in.ts';
import { listAddressOf } from './list-address.ts';
import { queueModeratorNotice, queueSenderNotice } from './notices.ts';
import { forwardToPostmaster } from './postmaster.ts';
import type { ReceivingList } from './recipient.ts';
import type { MailingList } from './render.ts';

export type InboundOutcome =
  | { action: 'accept'; rule: string; messageId: number }
  | { action: 'hold'; rule: string; heldId: number }
  | { action: 'reject' | 'discard'; rule: string }
  | { action: 'duplicate'; rule: 'duplicate' }
  /** Not held: the held queue is at one of its bounds (held-bounds.ts); the listener refuses it. */
  | { action: 'refused'; rule: 'held-queue-full'; reason: string }
  /** Mail to postmaster@, forwarded to this many superadmins (postmaster.ts). */
  | { action: 'forward'; rule: 'postmaster'; notices: number }
  /** A member's command by mail (issue 25), answered rather than posted. */
  | CommandOutcome
  /** Mail to a list's bounce address (issue 26): what it did to the address's bounce score. */
  | BounceOutcome;

/** Who a message is for: lists, and accounts whose postmaster@ it names. */
export interface InboundTargets {
  lists: readonly ReceivingList[];
  postmasters: readonly { id: number; domain: string }[];
  /** A list's command addresses (`-request`, `-join`, `-leave`, `-confirm+TOKEN`, issue 25). */
  commands?: readonly { list: ReceivingList; address: CommandAddress }[];
  /** A list's bounce address, `<list>-bounces+TOKEN@` of a delivery or the plain one (issue 26). */
  bounces?: readonly (BounceRecipient & { list: ReceivingList })[];
}

/** What became of one message: unreadable (refused for good), or an outcome per list. */
export type InboundResult =
  { unreadable: string } | { outcomes: { list: string; outcome: InboundOutcome }[] };

/**
 * How a message came: MAIL FROM, and the SMTP client (its address and EHLO name), which sender
 * verification needs; null for mail that came by no SMTP session (the demo's own).
 */
export interface InboundEnvelope {
  mailFrom: string;
  client: { ip: string; helo: string } | null;
}

/** The message as one list sees it: the sender, and a Message-ID even when it came without one. */
interface Post {
  message: InboundMessage;
  raw: Buffer;
  fromAddress: string;
  messageId: string;
}

/**
 * One message from SMTP for the lists it was sent to (issue 18 item 2), in named steps: read once
 * (on the pool's threads), then for each list: who the sender is to the account, the posting
 * policy's decision (spec §2.4, src/api/posting-policy; on the pool's threads too: taboo rules scan
 * the whole body), and the decision acted on in one transaction. Accepted: archived with its source
 * and queued for the members. Held: into the held queue, the list manager told (notify_approval)
 * and the sender answered (send_hold_message). Rejected: the sender answered (send_reject_message).
 * Discarded: dropped. Automated senders are never answered, nor a From the message does not
 * authenticate for (the policy's `senderNotice` is null for them: RFC 3834 loops, backscatter).
 * Mail to postmaster@ goes to the account's superadmins (postmaster.ts); mail to a list's bounce
 * address is read as a bounce (bounces/receive.ts), never as a post, and never answered.
 */
export async function processInbound(
  db: Kysely<Database>,
  work: InboundWork,
  { lists, postmasters, commands = [], bounces = [] }: InboundTargets,
  raw: Buffer,
  envelope: InboundEnvelope,
  bounds: HeldBounds,
  now: Date,
  /** Members' commands are answered only where it is given (the demo's own mail has none). */
  members?: MembersSetup,
  bounceSettings: BounceSettings = BOUNCE_DEFAULTS,
): Promise<InboundResult> {
  const { mailFrom, client } = envelope;
  const outcomes: { list: string; outcome: InboundOutcome }[] = [];
  if (bounces.length > 0) {
    const setup: BounceSetup = {
      db,
      unitOfWork: members?.unitOfWork ?? ((job) => db.transaction().execute(job)),
      settings: bounceSettings,
    };
    const said = await receiveBounces(setup, bounces, () => work.bounce({ raw }), now);
    bounces.forEach((target, index) => {
      const outcome = said[index];
      if (outcome) outcomes.push({ list: `${target.list.name} (bounces)`, outcome });
    });
    if (lists.length === 0 && postmasters.length === 0 && commands.length === 0)
      return { outcomes };
  }
  const read = await work.read({ raw, envelope: client && { ...client, mailFrom } });
  if (!read.ok) return { unreadable: read.unreadable };
  for (const list of lists) {
    // A post that is only a command for its sender is answered as one, not posted nor held.
    const command = await answerBareCommand(members, list, read.message, mailFrom, now);
    if (command) {
      outcomes.push({ list: list.name, outcome: command });
      continue;
    }
    const post = postFor(list, read.message, raw, mailFrom);
    const decision = await decide(db, work, list, post);
    outcomes.push({
      list: list.name,
      outcome: await act(db, work, list, post, decision, bounds, now),
    });
  }
  for (const target of commands)
    outcomes.push({
      list: `${target.list.name} (${target.address.suffix})`,
      outcome: await answerCommandMail(members, target, read.message, mailFrom, now),
    });
  for (const account of postmasters) {
    const notices = await db
      .transaction()
      .execute((trx) => forwardToPostmaster(trx, account, read.message, mailFrom, now));
    outcomes.push({
      list: `postmaster@${account.domain}`,
      outcome: { action: 'forward', rule: 'postmaster', notices },
    });
  }
  return { outcomes };
}

function postFor(
  list: ReceivingList,
  message: InboundMessage,
  raw: Buffer,
  envelopeFrom: string,
): Post {
  const domain = listAddressOf(list.name, list.domain).split('@')[1] ?? '';
  return {
    message,
    raw,
    fromAddress: message.from.address || envelopeFrom,
    messageId: message.messageId ?? `<${randomUUID()}@${domain}>`,
  };
}

function mailingListOf(list: ReceivingList): MailingList {
  return {
    name: list.name,
    address: listAddressOf(list.name, list.domain),
    settings: settingsOf(list),
  };
}

/** Spec §2.4: the posting policy, with what the account knows of the sender. */
async function decide(
  db: Kysely<Database>,
  work: InboundWork,
  list: ReceivingList,
  post: Post,
): Promise<PostingDecision> {
  const { address, settings } = mailingListOf(list);
  const account = accountSettingsOf({ settings: list.account_settings });
  const { message } = post;
  return work.decide({
    list: { name: list.name, address },
    settings,
    account: {
      notify_approval: account.notify_approval,
      subscriptions: account.subscriptions,
      unsubscriptions: account.unsubscriptions,
    },
    sender: {
      address: post.fromAddress,
      known: await senderKnowledge(db, list.account_id, post.fromAddress),
    },
    message: {
      from: { address: post.fromAddress, name: message.from.name },
      subject: message.subject,
      headers: message.headers,
      size: post.raw.length,
    },
    body: message.plain,
    authentication: message.authentication,
  });
}

/** What acting on a decision takes, made before its transaction: it takes as long as the message. */
type Prepared =
  | { action: 'accept'; archived: { plain: string; html: string } }
  | { action: 'hold'; stored: StoredHeldContent }
  | { action: 'reject' | 'discard' };

async function prepare(
  work: InboundWork,
  post: Post,
  decision: PostingDecision,
): Promise<Prepared> {
  const { message } = post;
  switch (decision.action) {
    case 'accept':
      return {
        action: 'accept',
        archived: await work.archive({ plain: message.plain, html: message.html }),
      };
    case 'hold':
      return {
        action: 'hold',
        stored: await work.pack({ raw: post.raw, plain: message.plain, html: message.html }),
      };
    default:
      return { action: decision.action };
  }
}

/** One decision being acted on, in its transaction. */
interface Acting {
  trx: Kysely<Database>;
  list: ReceivingList;
  post: Post;
  decision: PostingDecision;
  now: Date;
}

/**
 * The decision acted on, in one transaction. A sender's MTA that sends again after a lost answer
 * must not post twice, nor be held twice: the same Message-ID archived in the list or in its held
 * queue is a repeat, dropped without a notice. Checked where the message is acted on, copies side
 * by side serialized.
 */
async function act(
  db: Kysely<Database>,
  work: InboundWork,
  list: ReceivingList,
  post: Post,
  decision: PostingDecision,
  bounds: HeldBounds,
  now: Date,
): Promise<InboundOutcome> {
  const prepared = await prepare(work, post, decision);
  return db.transaction().execute(async (trx): Promise<InboundOutcome> => {
    await lockInbound(trx, list.id, post.messageId);
    if (
      (await findByMessageIds(trx, list.account_id, list.id, [post.messageId])).length > 0 ||
      (await isHeldInList(trx, list.id, post.messageId))
    )
      return { action: 'duplicate', rule: 'duplicate' };
    const acting: Acting = { trx, list, post, decision, now };
    switch (prepared.action) {
      case 'accept':
        return accept(acting, prepared.archived);
      case 'hold':
        return hold(acting, prepared.stored, bounds);
      case 'reject':
        return reject(acting);
      case 'discard':
        return { action: 'discard', rule: decision.rule };
    }
  });
}

/** What the archive and the held queue both keep of the message's envelope and headers. */
function summaryOf(post: Post) {
  return {
    subject: post.message.subject,
    fromPhrase: post.message.from.name,
    fromAddress: post.fromAddress,
    messageId: post.messageId,
    received: post.message.received,
  };
}

/** Spec §2.4 hold_message / reject_message, when the policy says the sender is told. */
async function tellSender({ trx, list, post, decision, now }: Acting): Promise<void> {
  if (decision.senderNotice === null) return;
  await queueSenderNotice(
    trx,
    list.account_id,
    mailingListOf(list),
    decision.senderNotice,
    post.fromAddress,
    post.message.subject,
    now,
  );
}

async function accept(
  { trx, list, post, decision, now }: Acting,
  archived: { plain: string; html: string },
): Promise<InboundOutcome> {
  const { message } = post;
  const id = await acceptMail(
    trx,
    list.account_id,
    list.id,
    {
      ...summaryOf(post),
      answers: message.answers,
      contentPlain: archived.plain,
      contentHtml: archived.html,
    },
    now,
  );
  await saveSource(trx, id, post.raw);
  return { action: 'accept', rule: decision.rule, messageId: id };
}

async function hold(
  acting: Acting,
  stored: StoredHeldContent,
  bounds: HeldBounds,
): Promise<InboundOutcome> {
  const { trx, list, post, decision, now } = acting;
  const { message } = post;
  const full = await heldQueueFull(
    trx,
    {
      accountId: list.account_id,
      listId: list.id,
      listName: list.name,
      sender: post.fromAddress,
      size: post.raw.length,
    },
    bounds,
  );
  if (full !== null) return { action: 'refused', rule: 'held-queue-full', reason: full };
  const heldId = await holdMail(
    trx,
    list.account_id,
    list.id,
    {
      ...summaryOf(post),
      headers: message.headers,
      content: stored,
      size: post.raw.length,
      answerable: message.authentication.result !== 'fail',
    },
    decision,
    now,
  );
  if (decision.notifyModerator)
    await queueModeratorNotice(
      trx,
      list.account_id,
      mailingListOf(list),
      { id: heldId, subject: message.subject, from: post.fromAddress, reason: decision.reason },
      now,
    );
  await tellSender(acting);
  return { action: 'hold', rule: decision.rule, heldId };
}

async function reject(acting: Acting): Promise<InboundOutcome> {
  await tellSender(acting);
  return { action: 'reject', rule: acting.decision.rule };
}
