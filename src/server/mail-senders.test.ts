import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeldPage } from '../api/schemas/held.ts';
import { MessagePage } from '../api/schemas/message.ts';
import { dnsOptionsFor, type TestDnsServer } from './test/dns-server.ts';
import { describeEachDialect, type TestServer } from './test/harness.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';

/**
 * Issue 28 item 2, "sender restrictions trust an unauthenticated From:" (SECURITY.md 50): with
 * `moderate` 10 and only board@demo.example allowed, each of the probe's forgeries went to every
 * member as board. An allowed sender now counts only when the message authenticates for its
 * domain (mailauth: SPF, DKIM, DMARC; DNS answered by the test's own server on loopback), a From
 * header that names no one author is held, and the list's own address as From is dropped. And
 * (item 5) hold and reject notices go only to a sender the message authenticates: no backscatter.
 */
describeEachDialect('who sent it: senders verified', (dialect) => {
  let rig: MailRig;
  let server: TestServer;
  let dns: TestDnsServer;
  let worker: MailRig['worker'];
  let sink: MailRig['sink'];
  let smtpIn: MailRig['smtpIn'];
  let client: MailRig['client'];
  let boardKey = '';
  const domain = 'acme.example';
  const member = 'ann@members.example';

  const held = async () =>
    HeldPage.parse((await server.request('GET', '/api/2/held/', { query: { limit: 100 } })).json)
      .data;
  const archived = async () =>
    MessagePage.parse(
      (await server.request('GET', '/api/2/messages/', { query: { limit: 100 } })).json,
    ).data.map((message) => message.subject);
  /** What went out to `address` (the outbox drained first). */
  const mailsTo = async (address: string) => {
    await worker.drainAll();
    return sink.mails.filter((mail) => mail.to.includes(address));
  };
  const sendRaw = (from: string, to: string, headers: string, subject: string) =>
    client.sendMail({
      envelope: { from, to },
      raw: `${headers}To: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '-')}@test>\r\n\r\nHello members.\r\n`,
    });

  beforeAll(async () => {
    rig = await startMailRig(dialect, { domain });
    ({ server, dns, worker, sink, smtpIn, client } = rig);
    // board@demo.example sends from its own servers (192.0.2.1), signs with DKIM and publishes
    // DMARC; the attacker's domain lets the test's client (127.0.0.1) send its mail.
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    boardKey = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const publicKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    dns.setTxt('demo.example', 'v=spf1 ip4:192.0.2.1 -all');
    dns.setTxt('_dmarc.demo.example', 'v=DMARC1; p=reject');
    dns.setTxt('sel._domainkey.demo.example', `v=DKIM1; k=rsa; p=${publicKey}`);
    dns.setTxt('evil.example', 'v=spf1 ip4:127.0.0.1 -all');
    // No DMARC record: SPF for the From domain itself is what counts.
    dns.setTxt('chairs.example', 'v=spf1 ip4:127.0.0.1 -all');
    await rig.createLists({
      'board-news': {
        moderate: 10,
        restrict_post_allowed_emails: ['board@demo.example', 'chair@chairs.example'],
        send_hold_message: true,
      },
      'members-only': { moderate: 6, restrict_post_lists: ['members-only'] },
      closed: {
        moderate: 10,
        restrict_post_allowed_emails: ['board@demo.example'],
        message_rejections: 2,
        send_reject_message: true,
      },
    });
    const contact = await server.request('POST', '/api/2/contacts/', {
      form: { emails: [member], lists: ['board-news', 'members-only'] },
    });
    expect(contact.status, contact.body).toBe(200);
  });
  afterAll(() => rig.close());

  it('posts board’s mail when it authenticates: DKIM aligned with demo.example (DMARC pass)', async () => {
    await client.sendMail({
      from: 'Board <board@demo.example>',
      to: `board-news@${domain}`,
      subject: 'Signed by the board',
      text: 'Minutes attached.',
      dkim: { domainName: 'demo.example', keySelector: 'sel', privateKey: boardKey },
    });
    expect(await archived()).toContain('Signed by the board');
    expect((await mailsTo(member)).map((mail) => mail.parsed.subject)).toContain(
      'Signed by the board',
    );
  });

  it('posts an allowed sender whose domain publishes no DMARC when SPF passes for that domain', async () => {
    await client.sendMail({
      from: 'chair@chairs.example',
      to: `board-news@${domain}`,
      subject: 'From the chair',
      text: 'Hello.',
    });
    expect(await archived()).toContain('From the chair');
  });

  const forgeries: [what: string, from: string, headers: string, rule: string, reason: RegExp][] = [
    [
      'envelope attacker, From board',
      'attacker@evil.example',
      'From: board@demo.example\r\n',
      'unauthenticated',
      /board@demo\.example.*DMARC fails for demo\.example/s,
    ],
    [
      'From board and attacker',
      'attacker@evil.example',
      'From: board@demo.example, attacker@evil.example\r\n',
      'from-header',
      /From header names 2 addresses/,
    ],
    [
      'two From headers',
      'attacker@evil.example',
      'From: board@demo.example\r\nFrom: attacker@evil.example\r\n',
      'from-header',
      /From header appears 2 times/,
    ],
    ['no From, envelope board', 'board@demo.example', '', 'from-header', /From header is missing/],
    [
      'From <board@…>@evil.example',
      'attacker@evil.example',
      'From: <board@demo.example>@evil.example\r\n',
      'from-header',
      /From header is malformed/,
    ],
    [
      'board’s name on the attacker’s address',
      'attacker@evil.example',
      'From: "board@demo.example" <attacker@evil.example>\r\n',
      'not-permitted',
      /not permitted/,
    ],
    [
      'Sender: board',
      'attacker@evil.example',
      'From: attacker@evil.example\r\nSender: board@demo.example\r\n',
      'not-permitted',
      /not permitted/,
    ],
    [
      'Resent-From: board',
      'attacker@evil.example',
      'From: attacker@evil.example\r\nResent-From: board@demo.example\r\n',
      'not-permitted',
      /not permitted/,
    ],
  ];
  it.each(forgeries)(
    'holds a forgery (%s), sends it to no member and answers nobody',
    async (what, envelope, headers, rule, reason) => {
      const subject = `Forged: ${what}`;
      await sendRaw(envelope, `board-news@${domain}`, headers, subject);
      const found = (await held()).find((message) => message.subject === subject);
      expect(found, subject).toMatchObject({ list: 'board-news', rule });
      expect(found?.reason).toMatch(reason);
      expect(await archived()).not.toContain(subject);
      expect(await mailsTo('board@demo.example')).toEqual([]);
    },
  );

  it('holds a member of a restricted list whose message does not authenticate for its domain', async () => {
    await client.sendMail({
      from: member,
      to: `members-only@${domain}`,
      subject: 'A member, unverified',
      text: 'Hello.',
    });
    const found = (await held()).find((message) => message.subject === 'A member, unverified');
    expect(found).toMatchObject({ rule: 'unauthenticated', setting: 'moderate' });
    expect(found?.reason).toContain('members.example');
  });

  it('drops mail claiming the list’s own address, without a word to anyone', async () => {
    await worker.drainAll();
    const before = sink.mails.length;
    for (const from of [`board-news@${domain}`, `Board-News@${domain.toUpperCase()}`])
      await sendRaw(
        'attacker@evil.example',
        `board-news@${domain}`,
        `From: ${from}\r\n`,
        `As the list ${from}`,
      );
    await worker.drainAll();
    const subjects = (await held()).map((message) => message.subject);
    expect(subjects.filter((subject) => subject.startsWith('As the list'))).toEqual([]);
    expect((await archived()).filter((subject) => subject.startsWith('As the list'))).toEqual([]);
    expect(sink.mails.slice(before)).toEqual([]);
  });

  it('a sender whose name servers never answer delays no other message (SECURITY.md 50)', async () => {
    dns.silent.add('slow.example');
    dns.silent.add('_dmarc.slow.example');
    const slowClient = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpIn.port,
      ignoreTLS: true,
    });
    const started = performance.now();
    const slow = slowClient
      .sendMail({
        from: 'someone@slow.example',
        to: `members-only@${domain}`,
        subject: 'From a slow domain',
        text: 'Hello.',
      })
      .then(() => performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.sendMail({
      from: 'chair@chairs.example',
      to: `board-news@${domain}`,
      subject: 'Not kept waiting',
      text: 'Hello.',
    });
    const quick = performance.now() - started;
    const slowMs = await slow;
    slowClient.close();
    // The slow one waited for its lookups' timeouts (2 s each), the other for none of them.
    expect(slowMs).toBeGreaterThanOrEqual(dnsOptionsFor(dns).timeoutMs);
    expect(quick).toBeLessThan(slowMs - 1000);
    expect(await archived()).toContain('Not kept waiting');
    expect((await held()).map((message) => message.subject)).toContain('From a slow domain');
  });

  describe('notices go only to a sender the message authenticates (no backscatter)', () => {
    it('rejects a forged allowed-looking sender without answering the forged address', async () => {
      await worker.drainAll();
      const before = sink.mails.length;
      await sendRaw(
        'attacker@evil.example',
        `closed@${domain}`,
        'From: victim@demo.example\r\n',
        'Reject me, forged',
      );
      await worker.drainAll();
      expect(sink.mails.slice(before).map((mail) => mail.to)).toEqual([]);
    });

    it('answers the same rejection to a sender who authenticates', async () => {
      await worker.drainAll();
      const before = sink.mails.length;
      await sendRaw(
        'attacker@evil.example',
        `closed@${domain}`,
        'From: attacker@evil.example\r\n',
        'Reject me, real',
      );
      await worker.drainAll();
      expect(sink.mails.slice(before).map((mail) => mail.to)).toEqual([['attacker@evil.example']]);
    });

    it('a moderator’s rejection of a forged message answers nobody', async () => {
      const subject = 'Forged: envelope attacker, From board';
      const found = (await held()).find((message) => message.subject === subject);
      await worker.drainAll();
      const before = sink.mails.length;
      const rejected = await server.request('POST', `/api/2/held/${String(found?.id)}/reject/`, {
        form: { reason: 'Not you.' },
      });
      expect(rejected.status, rejected.body).toBe(200);
      await worker.drainAll();
      expect(sink.mails.slice(before)).toEqual([]);
    });
  });
});
