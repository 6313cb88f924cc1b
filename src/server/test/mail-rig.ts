import nodemailer from 'nodemailer';
import { loadConfig } from '../config.ts';
import type { DialectName } from '../db/dialect.ts';
import { unitOfWork } from '../db/unit-of-work.ts';
import { OutboxWorker } from '../mail/outbox.ts';
import { storeChangedContactDocuments } from '../services/contact-document-store.ts';
import { startSmtpIn, type SmtpInOptions } from '../mail/smtp-in.ts';
import { smtpTransport } from '../mail/transport.ts';
import { dnsOptionsFor, startDnsServer, type TestDnsServer } from './dns-server.ts';
import { startTestServer, type TestServer, type TestServerOptions } from './harness.ts';
import { startSmtpSink, type SmtpSink, type SunkMail } from './smtp-sink.ts';

/**
 * What a test of mail in needs, real throughout: a test server whose account has a mail domain,
 * its SMTP listener, a DNS server on loopback answering for the senders (no test asks the
 * internet), and an outbox worker sending through SMTP into a sink.
 */
export interface MailRig {
  server: TestServer;
  domain: string;
  dns: TestDnsServer;
  sink: SmtpSink;
  worker: OutboxWorker;
  smtpIn: Awaited<ReturnType<typeof startSmtpIn>>;
  /** A sending MTA (nodemailer) connected to the listener. */
  client: ReturnType<typeof nodemailer.createTransport>;
  /** Creates lists through the API, each with its settings. */
  createLists(lists: Record<string, Record<string, unknown>>): Promise<void>;
  /** The outbox drained: a mark for `sentSince`. */
  mark(): Promise<number>;
  /** What went out since the mark (the outbox drained first). */
  sentSince(mark: number): Promise<SunkMail[]>;
  /** The names of the lists the contact of `address` (lower case) is a member of, sorted. */
  listsOf(address: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startMailRig(
  dialect: DialectName,
  options: {
    domain?: string;
    server?: TestServerOptions;
    listener?: Partial<Omit<SmtpInOptions, 'db' | 'clock' | 'dns' | 'members'>>;
    /** More of the outbox's settings, as the environment gives them (DKIM_DOMAIN, …). */
    env?: Record<string, string>;
  } = {},
): Promise<MailRig> {
  const domain = options.domain ?? 'acme.example';
  const server = await startTestServer(dialect, options.server);
  await server.database.db
    .updateTable('accounts')
    .set({ domain })
    .where('id', '=', server.account.id)
    .execute();
  const dns = await startDnsServer();
  const sink = await startSmtpSink();
  const transport = smtpTransport({
    ...loadConfig({ ...options.env, SMTP_URL: sink.url }).mail,
    smtpUrl: sink.url,
  });
  // The writes' unit of work, as `serve` builds it (mail-service.ts).
  const writes = unitOfWork(server.database.db, storeChangedContactDocuments);
  const worker = new OutboxWorker({
    db: server.database.db,
    writes,
    transport,
    batchSize: 50,
    // The server's clock: the VERP tokens' expiry and the bounces the relay refuses (issue 26).
    now: () => server.clock.now().getTime(),
    publicOrigin: () => 'https://lists.test',
    ...(options.listener?.bounces ? { bounces: options.listener.bounces } : {}),
  });
  const smtpIn = await startSmtpIn({
    host: '127.0.0.1',
    port: 0,
    maxBytes: 200_000,
    ...options.listener,
    db: server.database.db,
    clock: server.clock,
    dns: dnsOptionsFor(dns),
    // Members' commands by mail are answered as `serve` answers them (issue 25).
    members: {
      db: server.database.db,
      publicOrigin: () => 'https://lists.test',
      unitOfWork: writes,
    },
  });
  const client = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpIn.port,
    secure: false,
    ignoreTLS: true,
  });
  return {
    server,
    domain,
    dns,
    sink,
    worker,
    smtpIn,
    client,
    async createLists(lists) {
      for (const [name, settings] of Object.entries(lists)) {
        const created = await server.request('POST', '/api/2/lists/', {
          form: { name, ...settings },
        });
        if (created.status !== 200) throw new Error(`list ${name}: ${created.body}`);
      }
    },
    async mark() {
      await worker.drainAll();
      return sink.mails.length;
    },
    async sentSince(mark) {
      await worker.drainAll();
      return sink.mails.slice(mark);
    },
    async listsOf(address) {
      const rows = await server.database.db
        .selectFrom('memberships')
        .innerJoin('lists', 'lists.id', 'memberships.list_id')
        .innerJoin('emails', 'emails.contact_id', 'memberships.contact_id')
        .select('lists.name')
        .where('emails.email_key', '=', address)
        .orderBy('lists.name')
        .execute();
      return rows.map((row) => row.name);
    },
    async close() {
      client.close();
      await smtpIn.close();
      await worker.stop();
      // The pooled connection left open would keep the sink waiting for it (30 s) before it closes.
      transport.close();
      await sink.close();
      await dns.close();
      await server.close();
    },
  };
}
