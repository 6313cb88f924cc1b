import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { queueDigests } from './mail/digest.ts';
import { OutboxWorker } from './mail/outbox.ts';
import { smtpTransport, type MailTransport } from './mail/transport.ts';
import { claimBatch, markBatchSent, outboxCounts } from './repositories/outbox.repository.ts';
import { seedFanOutInto } from './test/fan-out-seed.ts';
import { describeEachDialect, openFresh, type FreshDatabase } from './test/harness.ts';
import { startSmtpSink } from './test/smtp-sink.ts';
import { testClock } from './test/test-clock.ts';

/**
 * Issue 18: one outbox worker per row however many `serve` processes share a database. Each
 * worker has its own connections (as another process would) and its own real SMTP sink, so the
 * sinks together show who sent what.
 */
describeEachDialect('outbox workers sharing one database', (dialect) => {
  const ADDRESSES = 1_000;
  let fresh: FreshDatabase;
  let other: DatabaseHandle;
  const sinks: Awaited<ReturnType<typeof startSmtpSink>>[] = [];
  const transports: MailTransport[] = [];

  async function workerOn(database: DatabaseHandle, leaseMs: number) {
    const sink = await startSmtpSink();
    sinks.push(sink);
    const transport = smtpTransport({ ...loadConfig({}).mail, smtpUrl: sink.url });
    transports.push(transport);
    const worker = new OutboxWorker({
      publicOrigin: () => 'https://lists.test',
      db: database.db,
      transport,
      batchSize: 20,
      leaseMs,
      idleMs: 20,
    });
    return { worker, sink };
  }

  /** Every address the sinks took, with how often. */
  function deliveries(): Map<string, number> {
    const seen = new Map<string, number>();
    for (const sink of sinks)
      for (const mail of sink.mails)
        for (const to of mail.to) seen.set(to, (seen.get(to) ?? 0) + 1);
    return seen;
  }

  beforeEach(async () => {
    fresh = await openFresh(dialect);
    other = await fresh.reopen();
    await seedFanOutInto(fresh.database.db, ADDRESSES);
  });
  afterEach(async () => {
    for (const transport of transports.splice(0)) transport.close();
    for (const sink of sinks.splice(0)) await sink.close();
    await other.close();
    await fresh.database.close();
    await fresh.cleanup();
  });

  // A transaction per member over SMTP (issue 25): 60 s for the fan-out on a loaded machine.
  it('two workers drain one fan-out together: each address gets it exactly once', { timeout: 60_000 }, async () => {
    const a = await workerOn(fresh.database, 10_000);
    const b = await workerOn(other, 10_000);
    await Promise.all([a.worker.drainAll(), b.worker.drainAll()]);
    expect(await outboxCounts(fresh.database.db)).toEqual({ sent: ADDRESSES });
    const seen = deliveries();
    expect(seen.size).toBe(ADDRESSES);
    expect([...seen.values()].filter((times) => times !== 1)).toEqual([]);
    // Both took part: the claim shares the work rather than one worker waiting for the other.
    expect(a.sink.mails.length).toBeGreaterThan(0);
    expect(b.sink.mails.length).toBeGreaterThan(0);
  });

  it('a worker that starts leaves a live claim alone, takes over a dead one when its lease runs out, and never sends a finished one again', async () => {
    const db = fresh.database.db;
    const now = Date.now();
    // Three other workers: one mid-send (it renews its lease: here, far ahead), one that died
    // after its claim (its lease runs out in a second), one that finished as its lease ran out.
    const live = await claimBatch(db, now, 20, now + 600_000, (m) => `m${m}-live`);
    const dead = await claimBatch(db, now, 20, now + 1_000, (m) => `m${m}-dead`);
    const finished = await claimBatch(db, now, 20, now, (m) => `m${m}-finished`);
    await markBatchSent(db, finished?.batch ?? '');
    const addressesOf = (batch: typeof live) => batch?.rows.map((row) => row.address) ?? [];

    const late = await workerOn(other, 1_000);
    late.worker.start();
    try {
      await expect
        .poll(async () => outboxCounts(db), { timeout: 60_000, interval: 100 })
        .toEqual({ sent: ADDRESSES - 20, sending: 20 });
    } finally {
      await late.worker.stop();
    }
    const seen = deliveries();
    expect(addressesOf(live)).toHaveLength(20);
    expect(addressesOf(live).filter((to) => seen.has(to))).toEqual([]);
    expect(addressesOf(finished).filter((to) => seen.has(to))).toEqual([]);
    expect(addressesOf(dead).filter((to) => seen.get(to) !== 1)).toEqual([]);
    expect(seen.size).toBe(ADDRESSES - 40);
    expect([...seen.values()].filter((times) => times !== 1)).toEqual([]);
  });

  it('two processes collecting digests at once queue each member’s digest once', async () => {
    // Every delivery of the fan-out waits for the digest (as for members on digest).
    await fresh.database.db.updateTable('outbox').set({ status: 'digest' }).execute();
    const collected = await Promise.allSettled([
      queueDigests(fresh.database.db, testClock().now()),
      queueDigests(other.db, testClock().now()),
    ]);
    // SQLite's single writer may refuse the second transaction outright: nothing is queued twice.
    const queued = collected.map((result) => (result.status === 'fulfilled' ? result.value : 0));
    expect(queued.reduce((sum, n) => sum + n, 0)).toBe(ADDRESSES);
    const notices = await fresh.database.db
      .selectFrom('notices')
      .select('to_address')
      .where('kind', '=', 'digest')
      .execute();
    expect(new Set(notices.map((notice) => notice.to_address)).size).toBe(ADDRESSES);
    expect(notices).toHaveLength(ADDRESSES);
  });
});
