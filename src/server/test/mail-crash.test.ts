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

/** The mail side of `serve` (./mail-process.ts), on the given database, into the local sink. */
function startMailProcess(dataDir: string, databaseUrl: string) {
  return spawn(process.execPath, [mailProcess], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      STATIC_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      SMTP_URL: '',
      MAIL_BATCH_SIZE: '100',
      // The killed worker's batch is taken over once its lease runs out: a second, not a minute.
      MAIL_LEASE_SECONDS: '1',
    },
    stdio: 'ignore',
  });
}

/**
 * SECURITY.md 38, issue 18 item 6: kill -9 during a fan-out to 10,000 addresses, restart, and each
 * address has the message exactly once (no loss, no second copy), in the local sink; on SQLite and
 * on PostgreSQL (a database of the run's cluster).
 */
describeEachDialect('mail crash', (dialect) => {
  it(
    'a kill -9 during a fan-out to 10,000 addresses loses no delivery and repeats none',
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
        // Kill once part of the fan-out has gone out: a few hundred addresses, far from all.
        const deadline = Date.now() + 60_000;
        const files = () =>
          fs.existsSync(sink) ? fs.readdirSync(sink).filter((n) => n.endsWith('.eml')).length : 0;
        while (files() < 3 && Date.now() < deadline && first.exitCode === null)
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
        const seen = new Map<string, number>();
        for (const address of addresses) seen.set(address, (seen.get(address) ?? 0) + 1);
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
});
