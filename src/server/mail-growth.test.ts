import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeldMessageDetail, HeldPage } from '../api/schemas/held.ts';
import { MessagePage } from '../api/schemas/message.ts';
import { loadConfig } from './config.ts';
import { manualClock } from './lib/clock.ts';
import type { HeldBounds } from './mail/held-bounds.ts';
import { startMail, type MailService } from './mail/mail-service.ts';
import type { Received } from './mail/smtp-in.ts';
import { startDnsServer, type TestDnsServer } from './test/dns-server.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';
import { bigText } from './test/mail-stall-bench.ts';
import { SmtpRawClient, type SmtpReply } from './test/smtp-raw.ts';

/**
 * Issue 28 item 2, "anyone can grow the database without limit": three messages of 9 MB to a list
 * that holds everything grew it by 80 MB. A held message is now stored once (its source, its text,
 * deflated); the held queue is bounded per list and per sender; held messages expire; and what a
 * list's `maxlength` refuses is refused before it is stored.
 */
const domain = 'acme.example';

/** A plain-text message of about `bytes`, from `from`. */
function message(from: string, to: string, subject: string, bytes = 2_000): string {
  return (
    `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '-')}@test>\r\n` +
    `Content-Type: text/plain; charset=utf-8\r\n\r\n${bigText(bytes).replace(/\n/g, '\r\n')}`
  );
}

describeEachDialect('the held queue cannot grow without limit', (dialect) => {
  let server: TestServer;
  let rig: MailRig;
  let smtpIn: MailRig['smtpIn'];
  const logged: string[] = [];
  const bounds: HeldBounds = {
    listMessages: 3,
    listBytes: 200_000,
    senderMessages: 2,
    senderBytes: 120_000,
    maxDays: 30,
    expirySweepSeconds: 3600,
  };

  const heldOf = async (list: string) =>
    HeldPage.parse(
      (await server.request('GET', '/api/2/held/', { query: { list, limit: 100 } })).json,
    ).data;
  const archived = async () =>
    MessagePage.parse(
      (await server.request('GET', '/api/2/messages/', { query: { limit: 100 } })).json,
    ).data.map((archivedMessage) => archivedMessage.subject);
  /** One transaction on a connection of its own. */
  async function send(
    from: string,
    to: string[],
    data: string,
    mailParams?: string,
  ): Promise<SmtpReply> {
    const { client } = await SmtpRawClient.connect(smtpIn.port);
    try {
      return await client.send({ from, to, data, ...(mailParams ? { mailParams } : {}) });
    } finally {
      await client.quit();
    }
  }

  beforeAll(async () => {
    rig = await startMailRig(dialect, {
      domain,
      listener: {
        maxBytes: 5_000_000,
        held: bounds,
        onError: (error) => logged.push(error instanceof Error ? error.message : String(error)),
      },
    });
    ({ server, smtpIn } = rig);
    await rig.createLists({
      stored: { moderate: 1 },
      counted: { moderate: 1 },
      weighed: { moderate: 1 },
      open: {},
      small: { maxlength: 10 },
    });
  });
  afterAll(() => rig.close());

  it('stores a held message once, deflated: less than it weighed as received', async () => {
    const data = message('writer@outside.example', `stored@${domain}`, 'Stored once', 100_000);
    expect((await send('writer@outside.example', [`stored@${domain}`], data)).code).toBe(250);
    const [held] = await heldOf('stored');
    expect(held).toMatchObject({ subject: 'Stored once', size: Buffer.byteLength(data) + 2 });
    // Before: the source as base64, its text, and HTML made from the text: 3.3 times its size.
    const { stored } = await server.database.db
      .selectFrom('held_messages')
      .select(
        sql<
          number | string
        >`length(raw_deflated) + length(plain_deflated) + coalesce(length(html_deflated), 0)`.as(
          'stored',
        ),
      )
      .where('id', '=', Number(held?.id))
      .executeTakeFirstOrThrow();
    expect(Number(stored)).toBeLessThan(Buffer.byteLength(data));
    // What the queue shows is whole: the text, and no HTML the sender did not send.
    const detail = HeldMessageDetail.parse(
      (await server.request('GET', `/api/2/held/${String(held?.id)}/`)).json,
    );
    expect(detail.content_plain.length).toBeGreaterThan(99_000);
    expect(detail.content_html).toBe('');
    // Approved, it is archived with its text and the HTML made from it (spec §4.5).
    const approved = await server.request('POST', `/api/2/held/${String(held?.id)}/approve/`);
    expect(approved.status, approved.body).toBe(200);
    const archivedMessage = MessagePage.parse(
      (await server.request('GET', '/api/2/messages/', { query: { limit: 100 } })).json,
    ).data.find((one) => one.subject === 'Stored once');
    expect(archivedMessage?.content_plain.length).toBeGreaterThan(99_000);
    expect(archivedMessage?.content_html.startsWith('<p>')).toBe(true);
  });

  it('refuses with 452 what a sender would hold past its bound, and takes it once the queue has room', async () => {
    const from = 'flood@outside.example';
    const replies: number[] = [];
    for (const n of [1, 2, 3])
      replies.push((await send(from, [`counted@${domain}`], message(from, '', `Flood ${n}`))).code);
    expect(replies).toEqual([250, 250, 452]);
    expect((await heldOf('counted')).map((held) => held.subject)).toEqual(['Flood 1', 'Flood 2']);
    // A moderator works the queue: the sender's retry gets in.
    const [first] = await heldOf('counted');
    await server.request('POST', `/api/2/held/${String(first?.id)}/discard/`);
    expect((await send(from, [`counted@${domain}`], message(from, '', 'Flood 3'))).code).toBe(250);
  });

  it('refuses with 452 what the list would hold past its bound in messages, from anyone', async () => {
    const replies: number[] = [];
    for (const n of [1, 2])
      replies.push(
        (
          await send(
            `other${n}@outside.example`,
            [`counted@${domain}`],
            message(`other${n}@outside.example`, '', `Other ${n}`),
          )
        ).code,
      );
    expect(replies).toEqual([250, 452]);
    expect(await heldOf('counted')).toHaveLength(bounds.listMessages);
  });

  it('refuses with 452 what the list would hold past its bound in bytes', async () => {
    const replies: number[] = [];
    for (const n of [1, 2, 3, 4])
      replies.push(
        (
          await send(
            `heavy${n}@outside.example`,
            [`weighed@${domain}`],
            message(`heavy${n}@outside.example`, '', `Heavy ${n}`, 60_000),
          )
        ).code,
      );
    // 200,000 bytes at most: three messages of some 60 KB.
    expect(replies).toEqual([250, 250, 250, 452]);
  });

  it('still posts to the other lists of a message one list’s full queue refused, and logs that one', async () => {
    const from = 'both@outside.example';
    const reply = await send(
      from,
      [`counted@${domain}`, `open@${domain}`],
      message(from, '', 'To a full list and an open one'),
    );
    expect(reply.code).toBe(250);
    expect(await archived()).toContain('To a full list and an open one');
    expect(logged.some((line) => line.includes('not held for counted'))).toBe(true);
  });

  describe('maxlength (spec §2.4, KB) refused before it is stored', () => {
    it('at RCPT when the client declares its SIZE (RFC 1870), for that list only', async () => {
      const { client } = await SmtpRawClient.connect(smtpIn.port);
      try {
        expect((await client.command('EHLO client.test')).text).toContain('SIZE');
        expect((await client.command('MAIL FROM:<big@outside.example> SIZE=20000')).code).toBe(250);
        const small = await client.command(`RCPT TO:<small@${domain}>`);
        expect(small.code).toBe(552);
        expect(small.text).toContain('10240 bytes');
        expect((await client.command(`RCPT TO:<open@${domain}>`)).code).toBe(250);
        expect((await client.command('MAIL FROM:<big@outside.example> SIZE=9000')).code).toBe(503);
      } finally {
        await client.quit();
      }
    });

    it('while DATA streams when it does not, keeping nothing of it', async () => {
      const from = 'big@outside.example';
      const before = await archived();
      const reply = await send(from, [`small@${domain}`], message(from, '', 'Too big', 20_000));
      expect(reply.code).toBe(552);
      expect(await archived()).toEqual(before);
      expect(await heldOf('small')).toEqual([]);
      const fits = await send(from, [`small@${domain}`], message(from, '', 'Small enough', 5_000));
      expect(fits.code).toBe(250);
      expect(await archived()).toContain('Small enough');
    });

    it('to a list that takes it and one that does not: posted to the first, refused by the second', async () => {
      const from = 'big@outside.example';
      const reply = await send(
        from,
        [`small@${domain}`, `open@${domain}`],
        message(from, '', 'Big for one', 20_000),
      );
      expect(reply.code).toBe(250);
      const lists = MessagePage.parse(
        (await server.request('GET', '/api/2/messages/', { query: { limit: 100 } })).json,
      ).data.flatMap((archivedMessage) =>
        archivedMessage.subject === 'Big for one' ? [archivedMessage.list] : [],
      );
      expect(lists).toEqual(['open']);
      expect(await heldOf('small')).toEqual([]);
    });
  });
});

describeEachDialect(
  'held messages expire (HELD_MAX_DAYS, Mailman’s max_days_to_hold)',
  (dialect) => {
    let server: TestServer;
    let dns: TestDnsServer;
    let mail: MailService;
    let dataDir = '';
    const clock = manualClock(new Date('2026-11-29T10:00:00.000Z'));
    const received: Received[] = [];

    beforeAll(async () => {
      server = await startTestServer(dialect, { clock });
      await server.database.db
        .updateTable('accounts')
        .set({ domain })
        .where('id', '=', server.account.id)
        .execute();
      const created = await server.request('POST', '/api/2/lists/', {
        form: { name: 'waiting', moderate: 1 },
      });
      expect(created.status, created.body).toBe(200);
      dns = await startDnsServer();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-expiry-'));
      mail = await startMail(
        loadConfig({
          DATA_DIR: dataDir,
          SMTP_IN_PORT: '0',
          SMTP_IN_HOST: '127.0.0.1',
          DNS_SERVERS: dns.address,
          HELD_MAX_DAYS: '2',
          HELD_EXPIRY_SECONDS: '0.05',
        }),
        server.database.db,
        { clock, onReceived: (one) => received.push(one) },
      );
    });
    afterAll(async () => {
      await mail.close();
      await dns.close();
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const held = async () =>
      HeldPage.parse((await server.request('GET', '/api/2/held/')).json).data.map(
        (message) => message.subject,
      );

    it('drops what waited longer, by the server’s clock, and keeps the rest', async () => {
      const sendOne = async (subject: string) => {
        const { client } = await SmtpRawClient.connect(mail.smtpPort ?? 0);
        const from = 'writer@outside.example';
        const reply = await client.send({
          from,
          to: [`waiting@${domain}`],
          data: message(from, `waiting@${domain}`, subject),
        });
        await client.quit();
        expect(reply.code).toBe(250);
      };
      await sendOne('Held on Sunday');
      clock.advance(24 * 3600 * 1000);
      await sendOne('Held on Monday');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await held()).toEqual(['Held on Sunday', 'Held on Monday']);
      // Two days and a second after the first: only it has waited longer than HELD_MAX_DAYS.
      clock.advance(24 * 3600 * 1000 + 1000);
      await expect.poll(held, { timeout: 5000 }).toEqual(['Held on Monday']);
      clock.advance(24 * 3600 * 1000);
      await expect.poll(held, { timeout: 5000 }).toEqual([]);
    });
  },
);
