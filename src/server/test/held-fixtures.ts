import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { packHeldContent } from '../mail/held-content.ts';
import { holdMail } from '../mail/hold.ts';

/**
 * A held message put straight into the queue, as the SMTP pipeline would hold it: for tests of the
 * held-queue API and the dashboard's Held page, without an SMTP round trip. `tag` goes into every
 * text so that a leak across accounts is visible.
 */
export async function insertHeldMessage(
  db: Kysely<Database>,
  input: {
    accountId: number;
    list: string;
    tag: string;
    subject?: string;
    from?: string;
    body?: string;
    html?: string;
    rule?: 'hold-all' | 'taboo-body' | 'not-permitted';
    /** When it was held: the server's clock's now (a server test's `server.clock`); by default the machine's. */
    now?: Date;
    /** Whether the sender authenticated (a rejection answers only then); yes by default. */
    authenticated?: boolean;
  },
): Promise<number> {
  const list = await db
    .selectFrom('lists')
    .select('id')
    .where('account_id', '=', input.accountId)
    .where('name', '=', input.list)
    .executeTakeFirstOrThrow();
  const subject = input.subject ?? `Held note ${input.tag}`;
  const from = input.from ?? `writer@${input.tag}.example`;
  const body = input.body ?? `A held message of ${input.tag}`;
  const messageId = `<held-${Math.random().toString(36).slice(2)}@${input.tag}.example>`;
  const raw = Buffer.from(
    `From: ${from}\r\nTo: ${input.list}@example.org\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n\r\n${body}\r\n`,
  );
  const rule = input.rule ?? 'hold-all';
  const reason =
    rule === 'taboo-body'
      ? 'The body matches taboo_body[0].'
      : rule === 'not-permitted'
        ? 'The sender is not a member of the list.'
        : 'The list holds every message (moderate 1).';
  return holdMail(
    db,
    input.accountId,
    list.id,
    {
      subject,
      fromPhrase: `Writer ${input.tag}`,
      fromAddress: from,
      messageId,
      headers: [
        { name: 'From', value: from },
        { name: 'Subject', value: subject },
        { name: 'Message-ID', value: messageId },
      ],
      content: packHeldContent({
        raw,
        plain: Buffer.from(body),
        html: Buffer.from(input.html ?? `<p>${body}</p>`),
      }),
      size: raw.length,
      answerable: input.authenticated ?? true,
    },
    {
      rule,
      setting: rule === 'taboo-body' ? 'taboo_body[0]' : 'moderate',
      reason,
      hits: [
        {
          rule,
          action: 'hold',
          setting: rule === 'taboo-body' ? 'taboo_body[0]' : 'moderate',
          reason,
        },
      ],
    },
    input.now ?? new Date(),
  );
}
