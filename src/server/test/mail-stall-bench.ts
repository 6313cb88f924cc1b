// The stall of an unrelated GET while a 10 MB message arrives by SMTP (issue 28 item 2, SECURITY.md
// 29): part of `npm run bench -- --mail` (mail-bench-run.ts), or alone with
// `node src/server/test/mail-stall-bench.ts`. This process is the server (the API on a loopback
// port, the SMTP listener beside it, one SQLite database); mail-stall-client.ts, in a process of
// its own, GETs a list every 20 ms while it sends the message to a list that holds everything and
// has a taboo rule on the body.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { systemClock } from '../lib/clock.ts';
import { startSmtpIn } from '../mail/smtp-in.ts';
import { createAccount, createApiKeyAdministrator } from '../services/provisioning.service.ts';
import { dnsOptionsFor, startDnsServer } from './dns-server.ts';

const MESSAGE_BYTES = 10 * 1024 * 1024;
const run = promisify(execFile);

const WORDS = (
  'the list moderator message member archive posting sender subject meeting notes agenda ' +
  'budget draft review thanks question answer tomorrow friday report minutes board vote'
).split(' ');

/**
 * About `bytes` of plain text, words drawn at random (a fixed seed) in lines: as a long post would
 * be, compressing as text does rather than as one repeated line.
 */
export function bigText(bytes: number): string {
  let seed = 1;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const words = Array.from({ length: 12 }, () => WORDS[next() % WORDS.length]);
    const line = `${words.join(' ')}.\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('').slice(0, bytes);
}

function composeBig(): Promise<Buffer> {
  return new MailComposer({
    from: 'Writer <writer@outside.example>',
    to: 'big@stall.example',
    subject: 'A very long post',
    text: bigText(MESSAGE_BYTES - 64 * 1024),
  })
    .compile()
    .build();
}

export interface StallMeasure {
  /** The slowest GET while the message was received and processed, timed from when it was due. */
  worstGetMs: number;
  /** The median GET meanwhile. */
  medianGetMs: number;
  /** The slowest GET in as long a window right after, with no mail: what the machine's load costs. */
  idleWorstGetMs: number;
  gets: number;
  /** From the first byte sent to the listener's answer to DATA. */
  messageSeconds: number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function measureStall(progress: (line: string) => void): Promise<StallMeasure> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-mail-stall-'));
  const database = await openDatabase({ dataDir });
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0' });
  const app = await buildApp({ config, database });
  try {
    const now = systemClock.now();
    const account = await createAccount(database.db, { name: 'stall', now });
    await database.db
      .updateTable('accounts')
      .set({ domain: 'stall.example' })
      .where('id', '=', account.id)
      .execute();
    const { key } = await createApiKeyAdministrator(database.db, {
      accountId: account.id,
      permissions: ['superadmin'],
      now,
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const created = await fetch(`${address}/api/2/lists/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ name: 'big', moderate: '1', 'taboo_body[]': 'lazy\\s+cat' }),
    });
    if (!created.ok) throw new Error(`creating the list answered ${created.status}`);
    const dns = await startDnsServer();
    const smtp = await startSmtpIn({
      db: database.db,
      host: '127.0.0.1',
      port: 0,
      maxBytes: MESSAGE_BYTES + 1024 * 1024,
      clock: systemClock,
      dns: dnsOptionsFor(dns),
    });
    try {
      const file = path.join(dataDir, 'big.eml');
      fs.writeFileSync(file, await composeBig());
      progress('mail: a 10 MB message in while a GET runs every 20 ms');
      const { stdout } = await run(process.execPath, [
        path.join(import.meta.dirname, 'mail-stall-client.ts'),
        String(smtp.port),
        file,
        'writer@outside.example',
        'big@stall.example',
        `${address}/api/2/lists/`,
        key,
      ]);
      const measured = JSON.parse(stdout) as {
        idle: number[];
        during: number[];
        seconds?: number;
        error?: string;
      };
      if (measured.seconds === undefined)
        throw new Error(`the message was refused: ${measured.error ?? '?'}`);
      return {
        worstGetMs: Math.max(...measured.during),
        medianGetMs: median(measured.during),
        idleWorstGetMs: Math.max(...measured.idle),
        gets: measured.during.length,
        messageSeconds: measured.seconds,
      };
    } finally {
      await smtp.close();
      await dns.close();
    }
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bench's rows for this measure. */
export function stallRows(measure: StallMeasure): string[][] {
  return [
    [
      'GET /lists/ every 20 ms while a 10 MB message arrives by SMTP to a list that holds it (SECURITY.md 29: ≤ 100 ms)',
      `worst ${measure.worstGetMs.toFixed(0)} ms, median ${measure.medianGetMs.toFixed(1)} ms over ${measure.gets} GETs; the message took ${measure.messageSeconds.toFixed(2)} s (as long with no mail: worst ${measure.idleWorstGetMs.toFixed(0)} ms, the machine's own load)`,
    ],
  ];
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const measure = await measureStall((line) => console.error(line));
  console.log(JSON.stringify(stallRows(measure)));
}
