import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeldPage } from '../api/schemas/held.ts';
import { MessagePage } from '../api/schemas/message.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { createAccount, createApiKeyAdministrator } from './services/provisioning.service.ts';
import { startDnsServer, type TestDnsServer } from './test/dns-server.ts';
import { startServeWithOutput, type ServeWithOutput } from './test/mail-serve.ts';
import { freePort } from './test/postgres-cluster.ts';
import { startSmtpSink, type SmtpSink } from './test/smtp-sink.ts';
import { testClock } from './test/test-clock.ts';

/** A delivery or a notice: where it is, and how often the worker tried it. */
interface MailRow {
  table: string;
  status: string;
  attempts: number;
}

/**
 * SECURITY.md 39: the relay's password (in SMTP_URL) and the DKIM private key never reach the API,
 * the dashboard's configuration or the logs. `listkeeper serve` runs with both, logging everything
 * (LOG_LEVEL=trace), while its relay refuses the login (echoing the credentials back, as the worst
 * relay would), then is gone, then takes the mail; every line it printed, every answer a superadmin
 * and a global key can read, and every row mail left in the database are searched for them.
 */
describe('SECURITY.md 39: the relay password and the DKIM key stay secret', () => {
  // A '/' in the password: SMTP_URL holds it percent-encoded, nodemailer decodes it; both count.
  const password = `pw/${randomBytes(12).toString('hex')}`;
  const written = encodeURIComponent(password);
  const user = 'lk-relay-user';
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const keyLines = pem.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'));
  const secrets = [password, written, ...keyLines, keyLines.join('')];
  /** The secrets `text` holds, shortened so that a failure does not print them whole. */
  const leaks = (text: string) =>
    secrets.filter((secret) => text.includes(secret)).map((secret) => `${secret.slice(0, 6)}…`);

  let root = '';
  const env = (dataDir: string, smtpUrl: string, extra: Record<string, string> = {}) => ({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    STATIC_DIR: path.join(root, 'no-dashboard'),
    LOG_LEVEL: 'trace',
    SMTP_URL: smtpUrl,
    DKIM_DOMAIN: 'lists.example',
    DKIM_SELECTOR: 'lk',
    DKIM_PRIVATE_KEY: pem,
    ...extra,
  });
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-secrets-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  describe('while serve runs and its relay fails and recovers', () => {
    let database: DatabaseHandle;
    let serve: ServeWithOutput;
    let sink: SmtpSink;
    let dns: TestDnsServer;
    let relayTakesLogin = false;
    const relay = (port?: number) =>
      startSmtpSink({
        port,
        auth: (name, pass) =>
          relayTakesLogin && name === user && pass === password
            ? null
            : `5.7.8 Authentication failed for ${name}:${pass}`,
      });
    let accountId = 0;
    let accountKey = '';
    let globalKey = '';
    let smtpInPort = 0;

    const api = async (key: string, url: string, init: RequestInit = {}) => {
      const response = await fetch(`${serve.url}${url}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, ...init.headers },
      });
      return { status: response.status, text: await response.text() };
    };
    const post = (url: string, form: Record<string, string>) =>
      api(accountKey, url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
    /** Every due retry now rather than in a minute: the worker's back-off, skipped. */
    const dueNow = async () => {
      await database.db
        .updateTable('outbox')
        .set({ next_attempt: 0 })
        .where('status', '=', 'pending')
        .execute();
      await database.db
        .updateTable('notices')
        .set({ next_attempt: 0 })
        .where('status', '=', 'pending')
        .execute();
    };

    /** The post's one delivery and the two notices, as `label` tells each, in the order written. */
    const mailRows = async (label: (row: MailRow) => string) => {
      const of = (table: 'outbox' | 'notices') =>
        database.db.selectFrom(table).select(['status', 'attempts']).orderBy('id').execute();
      const rows = [
        ...(await of('outbox')).map((row) => ({ table: 'outbox', ...row })),
        ...(await of('notices')).map((row) => ({ table: 'notices', ...row })),
      ];
      return rows.map(label);
    };
    /** Tried at least `times` times and waiting for the next try: not mid-send. */
    const triedTimes = (times: number) => (row: MailRow) =>
      row.status === 'pending' && row.attempts >= times
        ? 'tried'
        : `${row.table}: ${row.status} after ${row.attempts} attempts`;
    /**
     * Waits on the outbox, never on time: until the delivery and both notices are as `label` says,
     * looking every 100 ms for 30 s at most. `due`: each look first makes every waiting retry due,
     * so that an attempt that failed while the test moved on is not left minutes away.
     */
    const untilMail = async (
      what: string,
      label: (row: MailRow) => string,
      expected: string,
      { due = false } = {},
    ) =>
      expect
        .poll(
          async () => {
            if (due) await dueNow();
            return mailRows(label);
          },
          { timeout: 60_000, interval: 100, message: `the delivery and both notices ${what}` },
        )
        .toEqual([expected, expected, expected]);

    beforeAll(async () => {
      const dataDir = path.join(root, 'running');
      database = await openDatabase({ dataDir });
      const account = await createAccount(database.db, { name: 'acme', now: testClock().now() });
      accountId = account.id;
      await database.db
        .updateTable('accounts')
        .set({ domain: 'lists.example' })
        .where('id', '=', accountId)
        .execute();
      accountKey = (
        await createApiKeyAdministrator(database.db, {
          accountId,
          permissions: ['superadmin'],
          now: testClock().now(),
        })
      ).key;
      globalKey = (
        await createApiKeyAdministrator(database.db, {
          accountId: null,
          permissions: ['superadmin', 'account'],
          now: testClock().now(),
        })
      ).key;
      sink = await relay();
      smtpInPort = await freePort();
      // The sender authenticates (SPF), so the hold notice goes back to it (issue 28).
      dns = await startDnsServer();
      dns.setTxt('outside.example', 'v=spf1 ip4:127.0.0.1 -all');
      serve = await startServeWithOutput(
        env(dataDir, `smtp://${user}:${written}@127.0.0.1:${sink.port}`, {
          SMTP_IN_PORT: String(smtpInPort),
          SMTP_IN_HOST: '127.0.0.1',
          DNS_SERVERS: dns.address,
        }),
      );
    }, 60_000);
    afterAll(async () => {
      await serve.stop();
      await sink.close();
      await dns.close();
      await database.close();
    });

    it(
      'shows neither in any log line, API answer or stored row',
      { timeout: 240_000 },
      async () => {
        for (const [url, form] of [
          ['/api/2/lists/', { name: 'news' }],
          [
            '/api/2/lists/',
            { name: 'moderated', moderate: '1', send_hold_message: '1', notify_approval: '1' },
          ],
          ['/api/2/contacts/', { emails: 'ann@members.example', lists: 'news' }],
          [
            '/api/2/users/',
            // No welcome mail (spec §2.6 welcome_email, on by default): the mail here is the post's.
            {
              username: 'boss@lists.example',
              permissions: 'approval',
              notifications: 'approval',
              welcome_email: '0',
            },
          ],
          ['/api/2/messages/', { list: 'news', subject: 'Hello', content_plain: 'News for all.' }],
        ] as const) {
          const created = await post(url, form);
          expect(created.status, created.text).toBe(200);
        }
        // Mail in: held, the sender and the list manager told.
        const client = nodemailer.createTransport({
          host: '127.0.0.1',
          port: smtpInPort,
          ignoreTLS: true,
        });
        await client.sendMail({
          from: 'carol@outside.example',
          to: 'moderated@lists.example',
          subject: 'Please approve',
          text: 'Held, I expect.',
        });
        client.close();

        // 1. The relay refuses the login, quoting the credentials it was sent: each is tried and
        // waits for its retry (a minute away: none is tried again before step 2 makes it due).
        await untilMail('tried on the relay that refuses the login', triedTimes(1), 'tried');
        await expect.poll(() => serve.output(), { timeout: 60_000 }).toContain('Invalid login');
        // 2. The relay is gone: nothing listens on its port.
        await sink.close();
        await dueNow();
        await untilMail('tried again while the relay is gone', triedTimes(2), 'tried');
        await expect.poll(() => serve.output(), { timeout: 60_000 }).toContain('ECONNREFUSED');
        // 3. It is back and takes the login: everything goes, signed.
        relayTakesLogin = true;
        sink = await relay(sink.port);
        await untilMail('sent once the relay is back', (row) => row.status, 'sent', { due: true });
        expect(sink.mails.map((mail) => mail.parsed.headers.has('dkim-signature'))).toEqual([
          true,
          true,
          true,
        ]);

        // Everything a superadmin and a global key can read.
        const held = HeldPage.parse(JSON.parse((await api(accountKey, '/api/2/held/')).text));
        const messages = MessagePage.parse(
          JSON.parse((await api(accountKey, '/api/2/messages/')).text),
        );
        const accountPaths = [
          '/api/2/lists/',
          '/api/2/lists/news/',
          '/api/2/lists/moderated/',
          '/api/2/caller/',
          '/api/2/users/',
          '/api/2/contacts/',
          '/api/2/held/',
          `/api/2/held/${held.data[0]?.id}/`,
          '/api/2/messages/',
          `/api/2/messages/${messages.data[0]?.id}/`,
        ];
        // The global key: the same for the account (spec: account_id), and the accounts.
        const reads = [
          ...accountPaths.map((url) => [accountKey, url]),
          ...accountPaths.map((url) => [globalKey, `${url}?account_id=${accountId}`]),
          [globalKey, '/api/2/accounts/'],
          [globalKey, `/api/2/accounts/${accountId}/`],
          [globalKey, '/api/2/users/'],
          [globalKey, '/api/2/caller/'],
        ] as const;
        const answers: string[] = [];
        for (const [key, url] of reads) {
          const answer = await api(key, url);
          expect(answer.status, `${url}: ${answer.text}`).toBe(200);
          answers.push(answer.text);
        }
        const config = await fetch(`${serve.url}/config.json`);
        expect(config.status).toBe(200);
        answers.push(await config.text());
        expect(leaks(answers.join('\n'))).toEqual([]);

        // What mail left in the database.
        const rows: unknown[] = [];
        for (const table of [
          'outbox',
          'notices',
          'held_messages',
          'messages',
          'message_sources',
        ] as const)
          rows.push(await database.db.selectFrom(table).selectAll().execute());
        expect(leaks(JSON.stringify(rows))).toEqual([]);

        await serve.stop();
        const output = serve.output();
        expect(leaks(output)).toEqual([]);
        // The failures were logged, the relay's echo of the password with it taken out.
        expect(output).toContain(`Authentication failed for ${user}:[secret]`);
      },
    );
  });

  it('are not repeated when serve cannot use SMTP_URL', { timeout: 60_000 }, async () => {
    // nodemailer refuses the host, and its error carries the whole URL.
    const failed = await startServeWithOutput(
      env(path.join(root, 'bad-url'), `smtp://${user}:${written}@bad host.example:25`),
      { waitUntilUp: false },
    );
    const code = await failed.ended();
    expect(leaks(failed.output())).toEqual([]);
    expect(code).toBe(1);
    expect(failed.output()).toContain('SMTP_URL must be a URL with a host name');
  });

  it(
    'are not repeated when DKIM_PRIVATE_KEY is key material without its PEM armour',
    { timeout: 60_000 },
    async () => {
      const failed = await startServeWithOutput(
        {
          ...env(path.join(root, 'bare-key'), 'smtp://127.0.0.1:2525'),
          DKIM_PRIVATE_KEY: keyLines.join('\n'),
        },
        { waitUntilUp: false },
      );
      const code = await failed.ended();
      expect(leaks(failed.output())).toEqual([]);
      expect(code).toBe(1);
      expect(failed.output()).toContain(
        'DKIM_PRIVATE_KEY is neither PEM text ("-----BEGIN …") nor a readable file',
      );
    },
  );
});
