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
import { measureStall, stallRows } from './mail-stall-bench.ts';
import { systemClock } from '../lib/clock.ts';

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
      const worker = new OutboxWorker({ db, transport: sinkTransport(dataDir), batchSize: 100 });
      started = performance.now();
      await worker.drainAll();
      const outSeconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const counts = await outboxCounts(db);
      rows.push([
        `deliver ${FAN_OUT.toLocaleString('en')} into the sink (100 per transaction)`,
        `${(FAN_OUT / outSeconds).toFixed(0)} deliveries/s (${outSeconds.toFixed(1)} s; sent ${counts.sent ?? 0})`,
      ]);
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      rows.push([
        'memory during the fan-out: heap growth, resident set growth (peak − start)',
        `${mb(heapPeak - before.heapUsed)} heap, ${mb(rssPeak - before.rss)} RSS (peak RSS ${mb(rssPeak)})`,
      ]);
    } finally {
      await database.close();
    }

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

const progress = (line: string) => console.error(line);
const rows = [...(await measure(progress)), ...stallRows(await measureStall(progress))];
console.log(JSON.stringify(rows));
