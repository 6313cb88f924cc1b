import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeldPage } from '../api/schemas/held.ts';
import { describeEachDialect, type TestServer } from './test/harness.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';
import { SmtpRawClient } from './test/smtp-raw.ts';

/**
 * Issue 28 item 2, the probe's "Info" findings on the listener: connections that trickled a byte
 * every 10 s were never cut, and a client could hold any number of them; postmaster@ of a list
 * domain got 550, where RFC 5321 §4.5.1 requires it to be taken. The limits here are short
 * (SMTP_IN_SOCKET_TIMEOUT_SECONDS 1, SMTP_IN_DATA_TIMEOUT_SECONDS 2, two connections a client).
 */
describeEachDialect('the SMTP listener’s limits, and postmaster@', (dialect) => {
  let rig: MailRig;
  let server: TestServer;
  let smtpIn: MailRig['smtpIn'];
  const domain = 'acme.example';
  const limits = { socketTimeoutMs: 1000, dataTimeoutMs: 2000, maxPerClient: 2 };

  const connect = async () => (await SmtpRawClient.connect(smtpIn.port)).client;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Writes `text` a byte at a time, `every` ms apart, until the listener closes the connection. */
  async function trickle(client: SmtpRawClient, text: string, every: number): Promise<number> {
    const started = performance.now();
    for (const byte of text.repeat(100)) {
      if (client.closed || performance.now() - started > 8000) break;
      client.socket.write(byte);
      await pause(every);
    }
    return performance.now() - started;
  }

  beforeAll(async () => {
    rig = await startMailRig(dialect, { domain, listener: { limits } });
    ({ server, smtpIn } = rig);
    const created = await server.request('POST', '/api/2/lists/', {
      form: { name: 'news', moderate: 1 },
    });
    expect(created.status, created.body).toBe(200);
    for (const [username, permissions] of [
      ['boss@outside.example', ['superadmin']],
      ['deputy@outside.example', ['superadmin']],
      ['helper@outside.example', ['approval']],
      // A superadmin whose address is the postmaster's own is not sent its own mail back.
      [`postmaster@${domain}`, ['superadmin']],
    ] as const) {
      const user = await server.request('POST', '/api/2/users/', {
        form: { username, permissions },
      });
      expect(user.status, user.body).toBe(200);
    }
  });
  afterAll(() => rig.close());

  describe('timeouts (SMTP_IN_SOCKET_TIMEOUT_SECONDS, SMTP_IN_DATA_TIMEOUT_SECONDS)', () => {
    it('closes a connection that says nothing', async () => {
      const client = await connect();
      const started = performance.now();
      expect((await client.reply()).code).toBe(421);
      expect(performance.now() - started).toBeLessThan(limits.socketTimeoutMs + 3000);
      await client.quit();
    });

    it('cuts a client that trickles its message a byte at a time, and keeps none of it', async () => {
      const client = await connect();
      expect((await client.command('EHLO client.test')).code).toBe(250);
      expect((await client.command('MAIL FROM:<slow@outside.example>')).code).toBe(250);
      expect((await client.command(`RCPT TO:<news@${domain}>`)).code).toBe(250);
      expect((await client.command('DATA')).code).toBe(354);
      // Each byte comes before the idle timeout: only the deadline on the message cuts it.
      const took = await trickle(client, 'Subject: slow\r\n', 300);
      expect(client.closed).toBe(true);
      expect(took).toBeLessThan(limits.dataTimeoutMs + 3000);
      const held = HeldPage.parse((await server.request('GET', '/api/2/held/')).json);
      expect(held.data.map((message) => message.subject)).not.toContain('slow');
      await client.quit();
    });

    it('cuts a client that trickles its commands', async () => {
      const client = await connect();
      const took = await trickle(client, 'NOOP\r\n', 300);
      expect(client.closed).toBe(true);
      expect(took).toBeLessThan(limits.dataTimeoutMs + 3000);
    });

    it('gives each message of a connection the whole time again', async () => {
      const client = await connect();
      const from = 'steady@outside.example';
      const data = (n: number) =>
        `From: ${from}\r\nSubject: Steady ${n}\r\nMessage-ID: <steady-${n}@outside.example>\r\n\r\nHi.\r\n`;
      // Pauses under the idle timeout, messages past the deadline in all: each one counts its own.
      for (const n of [1, 2, 3]) {
        expect((await client.send({ from, to: [`news@${domain}`], data: data(n) })).code).toBe(250);
        await pause(limits.socketTimeoutMs * 0.8);
      }
      await client.quit();
    });
  });

  it('takes at most SMTP_IN_MAX_CONNECTIONS_PER_CLIENT connections from one client at once', async () => {
    const first = await connect();
    const second = await connect();
    const { client: third, greeting } = await SmtpRawClient.connect(smtpIn.port);
    expect(greeting.code).toBe(421);
    expect(greeting.text).toContain('Too many connections');
    await third.quit();
    await first.quit();
    await pause(100);
    const { client: fourth, greeting: again } = await SmtpRawClient.connect(smtpIn.port);
    expect(again.code).toBe(220);
    await fourth.quit();
    await second.quit();
  });

  describe('postmaster@ (RFC 5321 §4.5.1)', () => {
    it('takes mail for postmaster@ the account’s domain, any case, and forwards it to its superadmins', async () => {
      const before = await rig.mark();
      const client = await connect();
      const reply = await client.send({
        from: 'admin@outside.example',
        to: [`postmaster@${domain}`, `PostMaster@${domain.toUpperCase()}`],
        data: 'From: Admin <admin@outside.example>\r\nSubject: Your server\r\n\r\nIt sends us spam.\r\n',
      });
      await client.quit();
      expect(reply.code).toBe(250);
      const forwards = await rig.sentSince(before);
      expect(forwards.flatMap((mail) => mail.to).sort()).toEqual([
        'boss@outside.example',
        'deputy@outside.example',
      ]);
      const [forward] = forwards;
      expect(forward?.from).toBe(`postmaster@${domain}`);
      expect(forward?.parsed.subject).toBe('Postmaster: Your server');
      expect(forward?.parsed.text).toContain('It sends us spam.');
      expect(forward?.parsed.text).toContain('From: Admin <admin@outside.example>');
      expect(forward?.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    });

    it('forwards no bounce (the null sender): it can only be a forward’s, and would loop', async () => {
      const before = await rig.mark();
      const client = await connect();
      const reply = await client.send({
        from: '',
        to: [`postmaster@${domain}`],
        data: 'From: MAILER-DAEMON@outside.example\r\nSubject: Undelivered\r\n\r\nNo such user.\r\n',
      });
      await client.quit();
      expect(reply.code).toBe(250);
      expect(await rig.sentSince(before)).toEqual([]);
    });

    it('is still no relay: postmaster@ a domain no account has is refused', async () => {
      const client = await connect();
      const reply = await client.send({
        from: 'admin@outside.example',
        to: ['postmaster@elsewhere.example'],
        data: 'Subject: x\r\n\r\nx\r\n',
      });
      await client.quit();
      expect(reply.code).toBe(550);
    });
  });
});
