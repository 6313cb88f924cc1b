import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { heldMessageExists } from '../repositories/held.repository.ts';
import { findListByAddress } from '../repositories/mail.repository.ts';
import { HELD_DEFAULTS } from '../mail/held-bounds.ts';
import { inThreadWork } from '../mail/inbound-work.ts';
import { processInbound, type InboundOutcome } from '../mail/pipeline.ts';

/**
 * Mail the demo sends through the real pipeline (issue 18 item 5), so that the Held page has
 * something to triage: each is held by a different rule, and one is rejected (its sender's notice
 * waits in the outbox). Message-IDs are fixed: a message already held or archived is not sent again.
 */
const DEMO_MAIL: { list: string; from: string; subject: string; body: string; headers?: string }[] =
  [
    {
      list: 'weekly-digest',
      from: 'Rita Editor <rita@demo.example>',
      subject: 'This week: the spring fair',
      body: 'The spring fair is on Saturday from ten. Volunteers meet at nine by the gate.',
    },
    {
      list: 'community',
      from: 'Lucky Winner <winner@spam.example>',
      subject: 'You are invited',
      body: 'Join our casino night and win big!',
    },
    {
      list: 'community',
      from: 'Newsletter Robot <robot@vendor.example>',
      subject: 'Automatic: your weekly statistics',
      body: 'This message was sent automatically.',
      headers: 'Auto-Submitted: auto-generated\r\n',
    },
    {
      list: 'staff',
      from: 'Visitor <visitor@outside.example>',
      subject: 'Question about opening hours',
      body: 'Hello, are you open on public holidays?',
    },
    {
      list: 'announcements',
      from: 'Stranger <stranger@outside.example>',
      subject: 'Please announce my event',
      body: 'Could you send this to everyone?',
    },
  ];

export async function seedDemoMail(
  db: Kysely<Database>,
  domain: string,
): Promise<InboundOutcome[]> {
  const outcomes: InboundOutcome[] = [];
  for (const [index, mail] of DEMO_MAIL.entries()) {
    const list = await findListByAddress(db, mail.list, domain);
    if (!list) continue;
    const messageId = `<demo-mail-${index}@${domain}>`;
    const held = await heldMessageExists(db, list.account_id, messageId);
    if (held) continue;
    const raw = Buffer.from(
      `From: ${mail.from}\r\nTo: ${mail.list}@${domain}\r\nSubject: ${mail.subject}\r\nMessage-ID: ${messageId}\r\n` +
        `Date: ${new Date().toUTCString()}\r\n${mail.headers ?? ''}Content-Type: text/plain; charset=utf-8\r\n\r\n${mail.body}\r\n`,
    );
    const address = /<([^>]+)>/.exec(mail.from)?.[1] ?? mail.from;
    const result = await processInbound(
      db,
      inThreadWork,
      { lists: [list], postmasters: [] },
      raw,
      { mailFrom: address, client: null },
      HELD_DEFAULTS,
      new Date(),
    );
    if ('outcomes' in result) outcomes.push(...result.outcomes.map(({ outcome }) => outcome));
  }
  return outcomes;
}
