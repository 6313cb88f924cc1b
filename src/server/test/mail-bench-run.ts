// The measurements of `npm run bench -- --mail` (bench/mail.ts runs this file in a process of its
// own and prints its rows): on SQLite in a temporary DATA_DIR, messages per second in (real SMTP
// into the pipeline), a fan-out to 100,000 addresses into the local sink (queueing time,
// deliveries per second, memory), the posting policy's decision time, and the stall of a GET while
// a 10 MB message arrives (mail-stall-bench.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { decidePosting } from '../../api/posting-policy/decide.ts';
import { setDirectory } from '../../api/posting-policy/directory.ts';
import { openDatabase } from '../db/database.ts';
import { acceptMail } from '../mail/accept.ts';
import { OutboxWorker } from '../mail/outbox.ts';
import { startSmtpIn } from '../mail/smtp-in.ts';
import { sinkTransport } from '../mail/transport.ts';
import { LIST_DEFAULTS } from '../repositories/lists.mapper.ts';
import { outboxCounts } from '../repositories/outbox.repository.ts';
import { dnsOptionsFor, startDnsServer } from './dns-server.ts';
import { seedFanOut } from './fan-out-seed.ts';
import type { Kysely } from 'kysely';
import autocannon from 'autocannon';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { measureStall, stallRows } from './mail-stall-bench.ts';
import { systemClock } from '../lib/clock.ts';
import { personalParts } from '../mail/outgoing/personal.ts';
import { buildPostTemplate, personalize } from '../mail/outgoing/template.ts';
import { SINK_FOLDER } from '../mail/transport.ts';
import { claimBatch, finishBatch, findPostForDelivery } from '../repositories/outbox.repository.ts';
import { expiryDay, linkKey, signLink } from '../tokens/signed-link.ts';

const FAN_OUT = 100_000;
const MESSAGES_IN = 300;
const DECISIONS = 20_000;

async function measure(progress: (line: string) => void): Promise<string[][]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-mail-bench-'));
  try {
    progress(`mail: seeding ${FAN_OUT} members`);
    await seedFanOut({ dataDir }, FAN_OUT, { message: false });
    const database = await openDatabase({ dataDir });
    const db = database.db;
    const rows: string[][] = [];
    try {
      // In: real SMTP into a small open list (the pipeline's cost, not a fan-out's).
      const list = await db
        .selectFrom('lists')
        .select(['id', 'account_id'])
        .executeTakeFirstOrThrow();
      await db
        .insertInto('lists')
        .values({ account_id: list.account_id, name: 'small', created: new Date().toISOString() })
        .execute();
      // Senders are verified against a DNS server of the bench's own, which knows none of them.
      const dns = await startDnsServer();
      const smtp = await startSmtpIn({
        db,
        host: '127.0.0.1',
        port: 0,
        maxBytes: 1_000_000,
        clock: systemClock,
        dns: dnsOptionsFor(dns),
      });
      const client = nodemailer.createTransport({
        host: '127.0.0.1',
        port: smtp.port,
        ignoreTLS: true,
        pool: true,
        maxConnections: 4,
      });
      progress(`mail: ${MESSAGES_IN} messages in by SMTP`);
      let started = performance.now();
      const sends = Array.from({ length: MESSAGES_IN }, (_, i) =>
        client.sendMail({
          from: `writer${i}@outside.example`,
          to: 'small@crash.example',
          subject: `Bench ${i}`,
          text: `Message ${i} of the bench.`,
        }),
      );
      await Promise.all(sends);
      const inSeconds = (performance.now() - started) / 1000;
      client.close();
      await smtp.close();
      await dns.close();
      rows.push([
        'messages in (SMTP → policy → archive), 4 connections',
        `${(MESSAGES_IN / inSeconds).toFixed(0)} messages/s`,
      ]);

      // Fan-out: queue one message to 100,000 members, then drain into the sink.
      progress(`mail: fan-out to ${FAN_OUT}`);
      started = performance.now();
      await db.transaction().execute((trx) =>
        acceptMail(
          trx,
          list.account_id,
          list.id,
          {
            subject: 'To all',
            fromPhrase: 'Bench',
            fromAddress: 'bench@crash.example',
            messageId: '<bench@crash.example>',
            answers: [],
            contentPlain: 'Hello all.',
            contentHtml: '',
          },
          new Date(),
        ),
      );
      const queueSeconds = (performance.now() - started) / 1000;
      rows.push([
        `queue ${FAN_OUT.toLocaleString('en')} deliveries (one statement)`,
        `${queueSeconds.toFixed(2)} s`,
      ]);
      global.gc?.();
      const before = process.memoryUsage();
      let heapPeak = before.heapUsed;
      let rssPeak = before.rss;
      const sampler = setInterval(() => {
        const now = process.memoryUsage();
        heapPeak = Math.max(heapPeak, now.heapUsed);
        rssPeak = Math.max(rssPeak, now.rss);
      }, 20);
      const worker = new OutboxWorker({
        publicOrigin: () => 'https://lists.test',
        db,
        transport: sinkTransport(dataDir),
        batchSize: 100,
      });
      started = performance.now();
      await worker.drainAll();
      const outSeconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const counts = await outboxCounts(db);
      rows.push([
        `deliver ${FAN_OUT.toLocaleString('en')} personal copies into the sink (a transaction each, issue 25; budget 60 s)`,
        `${(FAN_OUT / outSeconds).toFixed(0)} deliveries/s (${outSeconds.toFixed(1)} s; sent ${counts.sent ?? 0})`,
      ]);
      // The baseline, measured here in the same run: the same fan-out as it went before issue 25,
      // one shared copy per 100 recipients in one transaction.
      fs.rmSync(path.join(dataDir, SINK_FOLDER), { recursive: true, force: true });
      await db.updateTable('outbox').set({ status: 'pending', batch: null }).execute();
      started = performance.now();
      const shared = await deliverSharedCopies(db, sinkTransport(dataDir));
      const sharedSeconds = (performance.now() - started) / 1000;
      rows.push([
        `baseline: the same ${shared.toLocaleString('en')} as one shared copy per 100 recipients (before issue 25)`,
        `${(shared / sharedSeconds).toFixed(0)} deliveries/s (${sharedSeconds.toFixed(1)} s); personal copies take ${(outSeconds / sharedSeconds).toFixed(2)}× its time`,
      ]);
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      rows.push([
        'memory during the fan-out: heap growth, resident set growth (peak − start)',
        `${mb(heapPeak - before.heapUsed)} heap, ${mb(rssPeak - before.rss)} RSS (peak RSS ${mb(rssPeak)})`,
      ]);
    } finally {
      await database.close();
    }

    progress('mail: the public list page at 1 connection');
    rows.push(...(await publicPageLatency(dataDir)));

    progress('mail: policy decisions');
    const settings = {
      ...LIST_DEFAULTS,
      moderate: 2 | 4 | 8,
      restrict_post_lists: ['staff'],
      taboo_body: ['\\b(viagra|casino)\\b', 'crypto\\s+giveaway'],
      taboo_headers: ['^X-Spam-Flag:\\s*YES'],
    };
    const directory = setDirectory({
      members: {
        news: Array.from({ length: 1000 }, (_, i) => `m${i}@example.org`),
        staff: ['boss@example.org'],
      },
      contacts: [],
    });
    const body = 'A plain message of a few lines.\n'.repeat(40);
    const started = performance.now();
    for (let i = 0; i < DECISIONS; i += 1) {
      decidePosting({
        list: { name: 'news', address: 'news@example.org' },
        settings,
        account: {},
        directory,
        message: {
          from: { address: `m${i % 2000}@example.org` },
          subject: `Subject ${i}`,
          headers: [
            { name: 'Subject', value: `Subject ${i}` },
            { name: 'From', value: `m${i % 2000}@example.org` },
          ],
          body,
          size: body.length,
        },
      });
    }
    const micros = ((performance.now() - started) * 1000) / DECISIONS;
    rows.push(['posting policy decision (taboo rules, restrictions)', `${micros.toFixed(1)} µs`]);
    return rows;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The fan-out as the outbox sent it before deliveries were personal: a batch of 100 due rows
 * claimed, one copy rendered once, one transaction to all of them. Answers how many it sent.
 */
async function deliverSharedCopies(
  db: Kysely<Database>,
  transport: ReturnType<typeof sinkTransport>,
): Promise<number> {
  let sent = 0;
  let template: Awaited<ReturnType<typeof buildPostTemplate>> | null = null;
  for (;;) {
    const batch = await claimBatch(db, Date.now(), 100, Date.now() + 60_000, (m) => `shared-${m}-${sent}`);
    if (!batch) return sent;
    if (!template) {
      const row = await findPostForDelivery(db, batch.messageId);
      if (!row) throw new Error('the bench message is gone');
      template = await buildPostTemplate(
        { id: row.list_id, name: row.list_name, address: `${row.list_name}@crash.example`, settings: LIST_DEFAULTS },
        { subject: row.subject, fromPhrase: row.from_phrase, fromAddress: row.from_address, messageId: row.message_id, contentPlain: row.content_plain, contentHtml: row.content_html },
        { now: new Date(), canLeave: true },
      );
    }
    const raw = personalize(template, personalParts({ address: 'all@crash.example' }, { oneClick: null, memberPage: 'https://lists.test/l/all@crash.example/' }));
    await transport.send({ from: 'all-bounces@crash.example', to: batch.rows.map((r) => r.address) }, raw, batch.batch);
    await finishBatch(db, batch.batch, []);
    sent += batch.rows.length;
  }
}

/**
 * Issue 25 item 8: the list's public page and a one-click page, answered by `listkeeper serve`'s
 * app on the bench's database, p50 and p99 at one connection (autocannon), as the API's are.
 */
async function publicPageLatency(dataDir: string): Promise<string[][]> {
  const database = await openDatabase({ dataDir });
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', STATIC_DIR: dataDir }),
    database,
  });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const email = await database.db.selectFrom('emails').select(['id', 'email_key']).orderBy('id').executeTakeFirstOrThrow();
    const list = await database.db.selectFrom('lists').select('id').where('name', '=', 'all').executeTakeFirstOrThrow();
    const token = signLink(
      await linkKey(database.db),
      { purpose: 'unsubscribe', listId: list.id, emailId: email.id, expiresDay: expiryDay(new Date(), 30) },
      email.email_key,
    ).toString('base64url');
    const rows: string[][] = [];
    for (const [name, pathname] of [
      ['the list page, GET /l/all@crash.example/ (100,000 members)', '/l/all@crash.example/'],
      ['a one-click page, GET /l/all@crash.example/unsubscribe/…', `/l/all@crash.example/unsubscribe/${token}`],
    ] as const) {
      const measured = await latencies(`${url}${pathname}`);
      rows.push([
        `${name}, 1 connection`,
        `p50 ${measured.p50.toFixed(2)} ms, p99 ${measured.p99.toFixed(2)} ms (${measured.count} answers, ${measured.failed} not 200)`,
      ]);
    }
    return rows;
  } finally {
    await app.close();
    await database.close();
  }
}

/** Five seconds of GETs at one connection: the 200s' latencies, exact (autocannon's own events). */
async function latencies(url: string): Promise<{ p50: number; p99: number; count: number; failed: number }> {
  const times: number[] = [];
  let failed = 0;
  await new Promise<void>((resolve, reject) => {
    const run = autocannon({ url, connections: 1, duration: 5 }, (error) =>
      error ? reject(error as Error) : resolve(),
    );
    run.on('response', (_client, status, _bytes, time) => {
      if (status === 200) times.push(time);
      else failed += 1;
    });
  });
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), count: times.length, failed };
}

const progress = (line: string) => console.error(line);
const rows = [...(await measure(progress)), ...stallRows(await measureStall(progress))];
console.log(JSON.stringify(rows));
