import type { Kysely } from 'kysely';
import { oneLine } from '../../api/posting-policy/notice.ts';
import type { Database } from '../db/schema.ts';
import type { InboundMessage } from './inbound-message.ts';
import { queuePostmasterForward } from './notices.ts';

/** The most of a message's text a forward quotes: the superadmins read it, they do not archive it. */
const QUOTED_BYTES = 64 * 1024;

/**
 * Mail to `postmaster@<the account's domain>`, which RFC 5321 §4.5.1 requires a mail domain to
 * take (issue 28 item 5: it got 550), forwarded to the account's superadmins as a notice: who sent
 * it, its subject, and its text (the first 64 KB). A message with the null sender is a bounce of
 * such a forward (the only mail sent from postmaster@; everything else goes out from a list's
 * bounce address): dropped, so that a superadmin address that bounces makes no loop. Answers how
 * many superadmins were told.
 */
export async function forwardToPostmaster(
  db: Kysely<Database>,
  account: { id: number; domain: string },
  message: InboundMessage,
  mailFrom: string,
  now: Date,
): Promise<number> {
  if (mailFrom === '') return 0;
  const address = `postmaster@${account.domain.toLowerCase()}`;
  const text = Buffer.from(
    message.plain.buffer,
    message.plain.byteOffset,
    message.plain.byteLength,
  );
  const quoted = text.subarray(0, QUOTED_BYTES).toString();
  const body = [
    `A message to ${address} (RFC 5321 §4.5.1), for the account's superadmins.`,
    '',
    `Envelope sender: ${oneLine(mailFrom)}`,
    `From: ${oneLine(message.from.name ? `${message.from.name} <${message.from.address}>` : message.from.address)}`,
    `Subject: ${oneLine(message.subject)}`,
    '',
    quoted,
    ...(text.byteLength > QUOTED_BYTES
      ? ['', `[The rest, ${text.byteLength - QUOTED_BYTES} bytes, is not quoted here.]`]
      : []),
  ].join('\n');
  return queuePostmasterForward(
    db,
    account.id,
    address,
    { subject: `Postmaster: ${oneLine(message.subject)}`, body },
    now,
  );
}
