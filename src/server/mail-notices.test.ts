import nodemailer from 'nodemailer';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HeldPage } from '../api/schemas/held.ts';
import { loadConfig } from './config.ts';
import { OutboxWorker } from './mail/outbox.ts';
import { startSmtpIn } from './mail/smtp-in.ts';
import { smtpTransport, type MailTransport } from './mail/transport.ts';
import { dnsOptionsFor, startDnsServer, type TestDnsServer } from './test/dns-server.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { insertHeldMessage } from './test/held-fixtures.ts';
import { startSmtpSink } from './test/smtp-sink.ts';

/**
 * Issue 28 item 2, two findings of the probe on the notices mail sends: a reject notice went to a
 * list's own address (it came back in as mail); and a sender wrote lines of their own into the
 * moderator's notice through a subject that, encoded, held CR/LF.
 */
describeEachDialect('what notices say, and to whom', (dialect) => {
  let server: TestServer;
  let dns: TestDnsServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let transport: MailTransport;
  let worker: OutboxWorker;
  let smtpIn: Awaited<ReturnType<typeof startSmtpIn>>;
  let client: ReturnType<typeof nodemailer.createTransport>;
  const domain = 'acme.example';

  /** What went out since `before` (the outbox drained first). */
  const sentSince = async (before: number) => {
    await worker.drainAll();
    return sink.mails.slice(before);
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    await server.database.db
      .updateTable('accounts')
      .set({ domain })
      .where('id', '=', server.account.id)
      .execute();
    dns = await startDnsServer();
    // Mail from the lists' own domain authenticates: only the list-address rule keeps it unanswered.
    for (const name of [domain, 'outside.example']) dns.setTxt(name, 'v=spf1 ip4:127.0.0.1 -all');
    sink = await startSmtpSink();
    transport = smtpTransport({ ...loadConfig({ SMTP_URL: sink.url }).mail, smtpUrl: sink.url });
    worker = new OutboxWorker({ db: server.database.db, transport, batchSize: 50 });
    smtpIn = await startSmtpIn({
      db: server.database.db,
      host: '127.0.0.1',
      port: 0,
      maxBytes: 200_000,
      clock: server.clock,
      dns: dnsOptionsFor(dns),
    });
    client = nodemailer.createTransport({ host: '127.0.0.1', port: smtpIn.port, ignoreTLS: true });
    for (const [name, settings] of [
      ['alpha', { moderate: 1, send_reject_message: true }],
      ['beta', {}],
      [
        'closed',
        {
          moderate: 10,
          restrict_post_allowed_emails: ['nobody@outside.example'],
          message_rejections: 2,
          send_reject_message: true,
        },
      ],
      ['watched', { moderate: 1, notify_approval: 1, moderator: 'mod@outside.example' }],
      ['self-moderated', { moderate: 1, notify_approval: 1, moderator: `beta@${domain}` }],
    ] as const) {
      const created = await server.request('POST', '/api/2/lists/', {
        form: { name, ...settings },
      });
      expect(created.status, created.body).toBe(200);
    }
  });
  afterAll(async () => {
    client.close();
    await smtpIn.close();
    await worker.stop();
    transport.close();
    await sink.close();
    await dns.close();
    await server.close();
  });

  it('a moderator’s rejection of a message from a list’s address sends that list no notice', async () => {
    const id = await insertHeldMessage(server.database.db, {
      accountId: server.account.id,
      list: 'alpha',
      tag: 'acme',
      subject: 'From the list itself',
      from: `alpha@${domain}`,
    });
    const before = sink.mails.length;
    const rejected = await server.request('POST', `/api/2/held/${id}/reject/`, {
      form: { reason: 'No.' },
    });
    expect(rejected.status, rejected.body).toBe(200);
    expect(await sentSince(before)).toEqual([]);
  });

  it('a rejection of mail from another list’s address, authenticated, answers nobody', async () => {
    await worker.drainAll();
    const before = sink.mails.length;
    await client.sendMail({
      from: `beta@${domain}`,
      to: `closed@${domain}`,
      subject: 'As another list',
      text: 'Hello.',
    });
    expect(await sentSince(before)).toEqual([]);
    // The same from a person is answered: it is the list's address that keeps it quiet.
    await client.sendMail({
      from: 'someone@outside.example',
      to: `closed@${domain}`,
      subject: 'As a person',
      text: 'Hello.',
    });
    expect((await sentSince(before)).map((mail) => mail.to)).toEqual([['someone@outside.example']]);
  });

  it('tells no moderator whose address is a list’s', async () => {
    await worker.drainAll();
    const before = sink.mails.length;
    await client.sendMail({
      from: 'someone@outside.example',
      to: `self-moderated@${domain}`,
      subject: 'Moderated by a list',
      text: 'Hello.',
    });
    const held = HeldPage.parse((await server.request('GET', '/api/2/held/')).json).data;
    expect(held.map((message) => message.subject)).toContain('Moderated by a list');
    expect((await sentSince(before)).map((mail) => mail.to)).not.toContainEqual([`beta@${domain}`]);
  });

  it('keeps each value the moderator’s notice quotes on its own line', async () => {
    await worker.drainAll();
    const before = sink.mails.length;
    // RFC 2047: the subject decodes to three lines, the last two posing as the notice's own.
    await client.sendMail({
      envelope: { from: 'someone@outside.example', to: `watched@${domain}` },
      raw:
        `From: someone@outside.example\r\nTo: watched@${domain}\r\n` +
        'Subject: =?utf-8?q?Lunch=0D=0AFrom:_ceo@acme.example=0D=0AWhy:_approved_by_the_board?=\r\n' +
        'Message-ID: <lines@outside.example>\r\n\r\nHello.\r\n',
    });
    const [notice] = (await sentSince(before)).filter((mail) =>
      mail.to.includes('mod@outside.example'),
    );
    const lines = (notice?.parsed.text ?? '').trim().split(/\r?\n/);
    expect(lines.filter((line) => line.startsWith('From: '))).toEqual([
      'From: someone@outside.example',
    ]);
    expect(lines.filter((line) => line.startsWith('Why: '))).toHaveLength(1);
    expect(lines).toContain('Subject: Lunch From: ceo@acme.example Why: approved by the board');
  });
});
