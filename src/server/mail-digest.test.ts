import { afterAll, beforeAll, expect, it } from 'vitest';
import { Contact } from '../api/schemas/contact.ts';
import { loadConfig } from './config.ts';
import { queueDigests } from './mail/digest.ts';
import { OutboxWorker } from './mail/outbox.ts';
import { smtpTransport, type MailTransport } from './mail/transport.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { startSmtpSink } from './test/smtp-sink.ts';

/** Issue 18 item 4: digest members (spec §2.3) get one daily digest; a new member the welcome. */
describeEachDialect('digests and welcome messages', (dialect) => {
  let server: TestServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let worker: OutboxWorker;
  let transport: MailTransport;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sink = await startSmtpSink();
    const config = loadConfig({ SMTP_URL: sink.url });
    transport = smtpTransport({ ...config.mail, smtpUrl: sink.url });
    worker = new OutboxWorker({
      publicOrigin: () => 'https://lists.test', db: server.database.db, transport, batchSize: 10 });
  });
  afterAll(async () => {
    await worker.stop();
    // The pooled connection left open would keep the sink waiting for it (30 s) before it closes.
    transport.close();
    await sink.close();
    await server.close();
  });

  it('sends the welcome message to a new member, and a digest instead of each post to a digest member', async () => {
    const list = await server.request('POST', '/api/2/lists/', {
      form: {
        name: 'club',
        welcome_message: 'Welcome aboard!',
        welcome_message_subject: 'Hello new member',
      },
    });
    expect(list.status, list.body).toBe(200);
    const contact = await server.request('POST', '/api/2/contacts/', {
      form: { emails: ['daily@members.example'], lists: ['club'] },
    });
    expect(contact.status, contact.body).toBe(200);
    const reader = await server.request('POST', '/api/2/contacts/', {
      form: { emails: ['digest@members.example'] },
    });
    const membership = await server.request('POST', '/api/2/membership/', {
      form: { contact: String(Contact.parse(reader.json).id), list: 'club', digest: true },
    });
    expect(membership.status, membership.body).toBe(200);
    for (const subject of ['First post', 'Second post']) {
      const sent = await server.request('POST', '/api/2/messages/', {
        form: { list: 'club', subject, content_plain: `${subject} body` },
      });
      expect(sent.status, sent.body).toBe(200);
    }
    await worker.drainAll();
    const to = (address: string) => sink.mails.filter((m) => m.to.includes(address));
    expect(
      to('daily@members.example')
        .map((m) => m.parsed.subject)
        .sort(),
    ).toEqual(['First post', 'Hello new member', 'Second post']);
    expect(to('digest@members.example').map((m) => m.parsed.subject)).toEqual(['Hello new member']);
    expect(await queueDigests(server.database.db, server.clock.now())).toBe(1);
    await worker.drainAll();
    const digest = to('digest@members.example').find((m) =>
      m.parsed.subject?.startsWith('Digest of club@'),
    );
    expect(digest?.parsed.text).toContain('First post body');
    expect(digest?.parsed.text).toContain('Second post body');
    expect(await queueDigests(server.database.db, server.clock.now())).toBe(0);
  });

  it('follows the address’s digest setting unless the membership overrides it, either way (spec §2.3)', async () => {
    const list = await server.request('POST', '/api/2/lists/', { form: { name: 'readers' } });
    expect(list.status, list.body).toBe(200);
    // [address, the address's digest, the membership's digest (null: the address's)]
    const members = [
      ['own-digest@members.example', true, null],
      ['own-digest-overridden@members.example', true, false],
      ['forced-digest@members.example', false, true],
      ['plain@members.example', false, null],
    ] as const;
    for (const [email, addressDigest, membershipDigest] of members) {
      const created = await server.request('POST', '/api/2/contacts/', {
        form: { emails: [email] },
      });
      const contact = Contact.parse(created.json);
      const updated = await server.request('PUT', `/api/2/emails/${contact.emails[0]?.id ?? 0}/`, {
        form: { digest: addressDigest },
      });
      expect(updated.status, updated.body).toBe(200);
      const membership = await server.request('POST', '/api/2/membership/', {
        form: {
          contact: contact.id,
          list: 'readers',
          ...(membershipDigest === null ? {} : { digest: membershipDigest }),
        },
      });
      expect(membership.status, membership.body).toBe(200);
    }
    const sent = await server.request('POST', '/api/2/messages/', {
      form: { list: 'readers', subject: 'Reader news', content_plain: 'Reader news body' },
    });
    expect(sent.status, sent.body).toBe(200);
    await worker.drainAll();
    const got = (subject: string) =>
      sink.mails
        .filter((m) => m.parsed.subject?.startsWith(subject))
        .flatMap((m) => m.to)
        .filter((to) => members.some(([email]) => email === to))
        .sort();
    expect(got('Reader news')).toEqual([
      'own-digest-overridden@members.example',
      'plain@members.example',
    ]);
    expect(await queueDigests(server.database.db, server.clock.now())).toBe(2);
    await worker.drainAll();
    expect(got('Digest of readers@')).toEqual([
      'forced-digest@members.example',
      'own-digest@members.example',
    ]);
  });
});
