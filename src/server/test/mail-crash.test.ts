import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { seedFanOutInto } from './fan-out-seed.ts';
import { SINK_FOLDER } from '../mail/transport.ts';
import { outboxCounts } from '../repositories/outbox.repository.ts';
import { describeEachDialect, openFresh } from './harness.ts';
import { stopProcess } from './server-process.ts';
import { startSmtpSink } from './smtp-sink.ts';

const mailProcess = path.resolve(import.meta.dirname, 'mail-process.ts');
const ADDRESSES = 10_000;

/** Every address the sink holds, one entry per time it appears, from the envelope lines. */
function sunkAddresses(sink: string): string[] {
  if (!fs.existsSync(sink)) return [];
  return fs
    .readdirSync(sink)
    .filter((name) => name.endsWith('.eml'))
    .flatMap((name) => {
      const head = fs.readFileSync(path.join(sink, name), 'utf8').split('\r\n', 2)[1] ?? '';
      return head.replace(/^X-Listkeeper-Envelope-To: /, '').split(', ');
    });
}

/**
 * The mail side of `serve` (./mail-process.ts), on the given database, into the local sink or,
 * with `smtpUrl`, through that relay.
 */
function startMailProcess(dataDir: string, databaseUrl: string, smtpUrl = '') {
  return spawn(process.execPath, [mailProcess], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      STATIC_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtpUrl,
      MAIL_BATCH_SIZE: '100',
      // The killed worker's batch is taken over once its lease runs out: a second, not a minute.
      MAIL_LEASE_SECONDS: '1',
    },
    stdio: 'ignore',
  });
}

/** How often each address appears among `recipients`. */
function timesEach(recipients: readonly string[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const address of recipients) seen.set(address, (seen.get(address) ?? 0) + 1);
  return seen;
}

/**
 * SECURITY.md 38, issue 18 item 6: kill -9 during a fan-out, restart; on SQLite and on PostgreSQL
 * (a database of the run's cluster). Into the local sink (10,000 addresses) each address has the
 * message exactly once: the batch in flight at the kill is sent again under its key and each of its
 * deliveries replaces its own file. Over SMTP nothing can take a transaction back: the batch in
 * flight goes again, and those of its recipients the relay had taken (at most MAIL_BATCH_SIZE) get
 * a second copy with the same Message-ID; every other address gets it once.
 */
describeEachDialect('mail crash', (dialect) => {
  it(
    'a kill -9 during a fan-out to 10,000 addresses into the local sink loses no delivery and leaves each address there once',
    { timeout: 180_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-mail-crash-'));
      const sink = path.join(dataDir, SINK_FOLDER);
      // SQLite: the database in the server's DATA_DIR; PostgreSQL: a new one in the run's cluster.
      const fresh = dialect === 'postgres' ? await openFresh(dialect) : null;
      const databaseUrl = fresh?.options.databaseUrl ?? '';
      const database = fresh?.database ?? (await openDatabase({ dataDir }));
      try {
        await seedFanOutInto(database.db, ADDRESSES);
        const first = startMailProcess(dataDir, databaseUrl);
        // Kill once part of the fan-out has gone out: a few hundred addresses, far from all (a
        // file per delivery: each is personal, issue 25).
        const deadline = Date.now() + 60_000;
        const files = () =>
          fs.existsSync(sink) ? fs.readdirSync(sink).filter((n) => n.endsWith('.eml')).length : 0;
        while (files() < 300 && Date.now() < deadline && first.exitCode === null)
          await new Promise((r) => setTimeout(r, 5));
        const exited = new Promise((resolve) => first.once('exit', resolve));
        first.kill('SIGKILL');
        await exited;
        const beforeRestart = sunkAddresses(sink).length;
        expect(beforeRestart).toBeGreaterThanOrEqual(300);
        expect(beforeRestart).toBeLessThan(ADDRESSES);

        const second = startMailProcess(dataDir, databaseUrl);
        try {
          await expect
            .poll(() => outboxCounts(database.db), { timeout: 120_000, interval: 100 })
            .toEqual({ sent: ADDRESSES });
        } finally {
          await stopProcess(second);
        }
        const addresses = sunkAddresses(sink);
        const seen = timesEach(addresses);
        expect(seen.size).toBe(ADDRESSES);
        expect([...seen.values()].filter((times) => times !== 1)).toEqual([]);
        expect(addresses).toHaveLength(ADDRESSES);
      } finally {
        await database.close();
        await fresh?.cleanup();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it(
    'over SMTP, the batch the relay took in the instant before a kill -9 goes again, whole and with its Message-ID; nothing is lost and nothing else repeated',
    { timeout: 120_000 },
    async () => {
      const SMTP_ADDRESSES = 1_000;
      const KILLED_AT = 4;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-mail-crash-smtp-'));
      const fresh = dialect === 'postgres' ? await openFresh(dialect) : null;
      const databaseUrl = fresh?.options.databaseUrl ?? '';
      const database = fresh?.database ?? (await openDatabase({ dataDir }));
      let first: ReturnType<typeof startMailProcess> | null = null;
      // The relay records every transaction; it takes the fifth and, before its `250` is out, the
      // sender dies: the worst moment, deliveries taken and their batch not yet marked sent.
      const relay = await startSmtpSink({
        beforeAnswer: async (_mail, index) => {
          if (index !== KILLED_AT || first === null) return;
          const exited = new Promise((resolve) => first?.once('exit', resolve));
          first.kill('SIGKILL');
          await exited;
        },
      });
      try {
        await seedFanOutInto(database.db, SMTP_ADDRESSES);
        first = startMailProcess(dataDir, databaseUrl, relay.url);
        await expect
          .poll(() => first?.signalCode, { timeout: 60_000, interval: 20 })
          .toBe('SIGKILL');
        // What the relay took before the kill: deliveries of the one batch the first worker held.
        const takenBefore = relay.mails.flatMap((mail) => mail.to);
        expect(takenBefore.length).toBeGreaterThanOrEqual(KILLED_AT + 1);

        const second = startMailProcess(dataDir, databaseUrl, relay.url);
        try {
          await expect
            .poll(() => outboxCounts(database.db), { timeout: 60_000, interval: 100 })
            .toEqual({ sent: SMTP_ADDRESSES });
        } finally {
          await stopProcess(second);
        }
        const seen = timesEach(relay.mails.flatMap((mail) => mail.to));
        // Each address at least once, at most twice; twice exactly those the relay took from the
        // batch in flight, which went again whole: at most MAIL_BATCH_SIZE of them.
        expect(seen.size).toBe(SMTP_ADDRESSES);
        expect([...seen.values()].filter((times) => times > 2)).toEqual([]);
        const twice = [...seen].filter(([, times]) => times === 2).map(([address]) => address);
        expect(twice.sort()).toEqual([...takenBefore].sort());
        expect(twice.length).toBeLessThanOrEqual(100);
        // Every copy, the repeats too, is one transaction to one member with the post's
        // Message-ID: a receiver that keeps Message-IDs drops the repeat.
        expect(relay.mails.every((mail) => mail.to.length === 1)).toBe(true);
        expect(new Set(relay.mails.map((mail) => mail.parsed.messageId))).toEqual(
          new Set(['<crash-fan-out@crash.example>']),
        );
      } finally {
        if (first?.exitCode === null && first.signalCode === null) await stopProcess(first);
        await relay.close();
        await database.close();
        await fresh?.cleanup();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
