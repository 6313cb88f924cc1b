import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { simpleParser, type ParsedMail } from 'mailparser';
import { htmlToPlain, plainToHtml } from '../../api/message-content.ts';
import { decidePosting } from '../../api/posting-policy/decide.ts';
import { senderDirectory } from '../../api/posting-policy/directory.ts';
import type { HeaderField, PostingDecision } from '../../api/posting-policy/types.ts';
import type { Database } from '../db/schema.ts';
import { accountSettingsOf } from '../repositories/accounts.mapper.ts';
import { settingsOf } from '../repositories/lists.mapper.ts';
import { findListByAddress, senderKnowledge } from '../repositories/mail.repository.ts';
import { isHeldInList, lockInbound } from '../repositories/held.repository.ts';
import { findByMessageIds } from '../repositories/messages.repository.ts';
import { saveSource } from '../repositories/outbox.repository.ts';
import { acceptMail } from './accept.ts';
import { messageIdsIn } from './archive.ts';
import { holdMail } from './hold.ts';
import { listAddressOf } from './list-address.ts';
import { queueModeratorNotice, queueSenderNotice } from './notices.ts';
import type { MailingList } from './render.ts';

/** A list that receives mail: what the pipeline reads once per message. */
export type ReceivingList = NonNullable<Awaited<ReturnType<typeof findListByAddress>>>;

export type InboundOutcome =
  | { action: 'accept'; rule: string; messageId: number }
  | { action: 'hold'; rule: string; heldId: number }
  | { action: 'reject' | 'discard'; rule: string }
  | { action: 'duplicate'; rule: 'duplicate' };

/**
 * A message mailparser cannot read (over its limits of 1 MB of headers or 1000 MIME parts, or
 * malformed): sent again it is the same message, so the listener refuses it for good, not for later.
 */
export class UnreadableMessageError extends Error {}

/** Header fields as the policy reads them: name and value, folding undone (RFC 5322 §2.2.3). */
export function headerFields(parsed: ParsedMail): HeaderField[] {
  return parsed.headerLines.map(({ line }) => {
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1);
    return { name: name.trim(), value: value.replace(/\r?\n[ \t]+/g, ' ').trim() };
  });
}

/**
 * One message for one list, from SMTP (issue 18 item 2): parsed, decided by the posting policy
 * (spec §2.4, src/api/posting-policy), and acted on in one transaction. Accepted: archived with its
 * source and queued for the members. Held: into the held queue, the list manager told
 * (notify_approval) and the sender answered (send_hold_message). Rejected: the sender answered
 * (send_reject_message). Discarded: dropped. Automated senders are never answered (the policy's
 * `senderNotice` is null for them: RFC 3834, no backscatter loops).
 */
export async function processInbound(
  db: Kysely<Database>,
  list: ReceivingList,
  raw: Buffer,
  envelopeFrom: string,
  now: Date,
): Promise<InboundOutcome> {
  const parsed = await simpleParser(raw, { skipImageLinks: true }).catch((error: unknown) => {
    throw new UnreadableMessageError(error instanceof Error ? error.message : String(error));
  });
  const headers = headerFields(parsed);
  const sender = parsed.from?.value[0];
  const fromAddress = sender?.address ?? envelopeFrom;
  const fromPhrase = sender?.name ?? '';
  const subject = parsed.subject ?? '';
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const plain = parsed.text ?? (html ? htmlToPlain(html) : '');
  const address = listAddressOf(list.name, list.domain);
  const settings = settingsOf(list);
  const mailingList: MailingList = { name: list.name, address, settings };
  const messageId =
    parsed.messageId ?? `<${randomUUID()}@${address.slice(address.indexOf('@') + 1)}>`;

  const known = await senderKnowledge(db, list.account_id, fromAddress);
  const account = accountSettingsOf({ settings: list.account_settings });
  const decision: PostingDecision = decidePosting({
    list: { name: list.name, address },
    settings,
    account: {
      notify_approval: account.notify_approval,
      subscriptions: account.subscriptions,
      unsubscriptions: account.unsubscriptions,
    },
    directory: senderDirectory(fromAddress, known),
    message: {
      from: { address: fromAddress, name: fromPhrase },
      subject,
      headers,
      body: plain,
      size: raw.length,
    },
  });

  const answers = [
    ...messageIdsIn(parsed.inReplyTo),
    ...[
      ...(Array.isArray(parsed.references) ? parsed.references : messageIdsIn(parsed.references)),
    ].reverse(),
  ];
  // What the archive and the held queue both keep of the message.
  const content = {
    subject,
    fromPhrase,
    fromAddress,
    messageId,
    contentPlain: plain,
    contentHtml: html || plainToHtml(plain),
  };
  return db.transaction().execute(async (trx): Promise<InboundOutcome> => {
    // A sender's MTA that sends again after a lost answer must not post twice, nor be held twice:
    // the same Message-ID archived in the list or in its held queue is a repeat, dropped without a
    // notice. Checked where the message is acted on, copies side by side serialized.
    await lockInbound(trx, list.id, messageId);
    if (
      (await findByMessageIds(trx, list.account_id, list.id, [messageId])).length > 0 ||
      (await isHeldInList(trx, list.id, messageId))
    )
      return { action: 'duplicate', rule: 'duplicate' };
    switch (decision.action) {
      case 'accept': {
        const id = await acceptMail(trx, list.account_id, list.id, { ...content, answers }, now);
        await saveSource(trx, id, raw);
        return { action: 'accept', rule: decision.rule, messageId: id };
      }
      case 'hold': {
        const heldId = await holdMail(
          trx,
          list.account_id,
          list.id,
          { ...content, headers, size: raw.length, raw },
          decision,
          now,
        );
        if (decision.notifyModerator)
          await queueModeratorNotice(trx, list.account_id, mailingList, {
            id: heldId,
            subject,
            from: fromAddress,
            reason: decision.reason,
          }, now);
        if (decision.senderNotice === 'hold')
          await queueSenderNotice(trx, list.account_id, mailingList, 'hold', fromAddress, subject, now);
        return { action: 'hold', rule: decision.rule, heldId };
      }
      case 'reject':
        if (decision.senderNotice === 'reject')
          await queueSenderNotice(
            trx,
            list.account_id,
            mailingList,
            'reject',
            fromAddress,
            subject,
            now,
          );
        return { action: 'reject', rule: decision.rule };
      case 'discard':
        return { action: 'discard', rule: decision.rule };
    }
  });
}
