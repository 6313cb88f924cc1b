import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { MAX_ATTEMPTS, OutboxWorker, retryDelayMs } from './mail/outbox.ts';
import { smtpTransport, type MailTransport } from './mail/transport.ts';
import { insertNotices } from './repositories/notices.repository.ts';
import { outboxCounts } from './repositories/outbox.repository.ts';
import { seedFanOutInto } from './test/fan-out-seed.ts';
import { describeEachDialect, openFresh, type FreshDatabase } from './test/harness.ts';
import { startSmtpSink, type SmtpSink } from './test/smtp-sink.ts';
import { testClock } from './test/test-clock.ts';

/**
 * Issue 18 item 4 (README "Mail"): a relay that refuses or drops a transaction gets it again after
 * the back-off (1 min, 2, 4 … at most 6 h), once, when it recovers; after the 12th failed attempt a
 * delivery fails for good. A recipient refused with a 5xx fails at once and alone; one refused with
 * a 4xx is tried again alone. Time is the worker's clock, moved by the test.
 */
describeEachDialect('outbox retries', (dialect) => {
  const ADDRESSES = 5;
  const address = (i: number) => `m${i}@crash.example`;
  let fresh: FreshDatabase;
  let sink: SmtpSink;
  let transport: MailTransport;
  let worker: OutboxWorker;
  let clock: number;

  /** Every address the relay took, with how often. */
  function deliveries(): Map<string, number> {
    const seen = new Map<string, number>();
    for (const mail of sink.mails) for (const to of mail.to) seen.set(to, (seen.get(to) ?? 0) + 1);
    return seen;
  }

  const rows = () =>
    fresh.database.db
      .selectFrom('outbox')
      .select(['address', 'status', 'attempts', 'next_attempt'])
      .orderBy('id')
      .execute();

  beforeEach(async () => {
    fresh = await openFresh(dialect);
    await seedFanOutInto(fresh.database.db, ADDRESSES);
    sink = await startSmtpSink();
    transport = smtpTransport({ ...loadConfig({}).mail, smtpUrl: sink.url });
    // The worker's own clock, from the suite's date (TEST_SERVER_DATE in the date runs).
    clock = testClock().now().getTime();
    worker = new OutboxWorker({
      publicOrigin: () => 'https://lists.test',
      db: fresh.database.db,
      transport,
      batchSize: 100,
      now: () => clock,
    });
  });
  afterEach(async () => {
    transport.close();
    await sink.close();
    await fresh.database.close();
    await fresh.cleanup();
  });

  it('tries a refused batch again after its back-off, and a dropped one, and sends it once when the relay recovers', async () => {
    const start = clock;
    sink.refusal = { at: 'mail', code: 451 };
    await worker.drainAll();
    expect(sink.attempts).toBe(1);
    expect(await rows()).toEqual(
      Array.from({ length: ADDRESSES }, (_, i) => ({
        address: address(i),
        status: 'pending',
        attempts: 1,
        next_attempt: start + 60_000,
      })),
    );
    // Not before its time.
    clock = start + 59_999;
    await worker.drainAll();
    expect(sink.attempts).toBe(1);
    // The relay now cuts the connection at the end of DATA: no answer, so tried again later.
    sink.refusal = 'drop';
    clock = start + 60_000;
    await worker.drainAll();
    expect(sink.attempts).toBe(2);
    expect(sink.mails).toHaveLength(0);
    expect((await rows()).map((row) => [row.attempts, row.next_attempt])).toEqual(
      Array.from({ length: ADDRESSES }, () => [2, start + 60_000 + 120_000]),
    );
    clock = start + 179_999;
    await worker.drainAll();
    expect(sink.attempts).toBe(2);
    sink.refusal = null;
    clock = start + 180_000;
    await worker.drainAll();
    expect(await outboxCounts(fresh.database.db)).toEqual({ sent: ADDRESSES });
    // Once each, and nothing more however late it gets.
    clock += 365 * 86_400_000;
    await worker.drainAll();
    // Two refused tries (the first delivery alone each time, issue 25), then one each.
    expect(sink.attempts).toBe(2 + ADDRESSES);
    expect([...deliveries()].sort()).toEqual(
      Array.from({ length: ADDRESSES }, (_, i) => [address(i), 1]),
    );
  });

  it('gives a delivery up after the 12th failed attempt, about 20 hours after the first', async () => {
    const start = clock;
    sink.refusal = { at: 'data', code: 451 };
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      await worker.drainAll();
      expect(sink.attempts).toBe(attempt);
      const [first] = await rows();
      expect(first?.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(first?.status).toBe('pending');
        expect(first?.next_attempt).toBe(clock + retryDelayMs(attempt));
        clock = first?.next_attempt ?? clock;
      }
    }
    // 1 + 2 + 4 + … + 256 minutes, then 6 hours twice: the README's "about 20 hours".
    expect((clock - start) / 60_000).toBe(1231);
    expect(await outboxCounts(fresh.database.db)).toEqual({ failed: ADDRESSES });
    sink.refusal = null;
    clock += 365 * 86_400_000;
    await worker.drainAll();
    expect(sink.attempts).toBe(MAX_ATTEMPTS);
    expect(sink.mails).toHaveLength(0);
  });

  it('fails a recipient refused with a 5xx at once, tries one refused with a 4xx again, and sends the rest of the batch', async () => {
    const start = clock;
    sink.rejectRecipient = (to) => (to === address(1) ? 550 : to === address(3) ? 450 : null);
    await worker.drainAll();
    // Each delivery is its own transaction (issue 25: every copy is personal).
    const taken = () => sink.mails.map((mail) => mail.to.join()).sort();
    expect(taken()).toEqual([address(0), address(2), address(4)]);
    expect(await rows()).toEqual([
      { address: address(0), status: 'sent', attempts: 0, next_attempt: 0 },
      { address: address(1), status: 'failed', attempts: 1, next_attempt: start },
      { address: address(2), status: 'sent', attempts: 0, next_attempt: 0 },
      { address: address(3), status: 'pending', attempts: 1, next_attempt: start + 60_000 },
      { address: address(4), status: 'sent', attempts: 0, next_attempt: 0 },
    ]);
    // The relay takes everyone now: only the deferred recipient goes, the refused one never.
    sink.rejectRecipient = null;
    clock = start + 60_000;
    await worker.drainAll();
    clock += 365 * 86_400_000;
    await worker.drainAll();
    expect(taken()).toEqual([address(0), address(2), address(3), address(4)]);
    expect(await outboxCounts(fresh.database.db)).toEqual({ sent: 4, failed: 1 });
  });

  it('fails a batch whose every recipient is refused with a 5xx without trying it again', async () => {
    sink.rejectRecipient = () => 550;
    await worker.drainAll();
    sink.rejectRecipient = null;
    clock += 365 * 86_400_000;
    await worker.drainAll();
    // Once each (a transaction per recipient), and never again.
    expect(sink.attempts).toBe(ADDRESSES);
    expect(await outboxCounts(fresh.database.db)).toEqual({ failed: ADDRESSES });
  });

  it('treats a notice as a delivery: a 4xx is tried again after the back-off, a 5xx fails it', async () => {
    await fresh.database.db.deleteFrom('outbox').execute();
    const account = await fresh.database.db
      .selectFrom('accounts')
      .select('id')
      .executeTakeFirstOrThrow();
    const notice = (to: string) => ({
      account_id: account.id,
      kind: 'welcome',
      from_address: 'all@crash.example',
      to_address: to,
      subject: 'Welcome',
      body: 'Hello.',
      list_address: 'all@crash.example',
      created: new Date(clock).toISOString(),
    });
    await insertNotices(fresh.database.db, [notice('later@x.example'), notice('gone@x.example')]);
    sink.rejectRecipient = (to) => (to === 'gone@x.example' ? 550 : 451);
    const start = clock;
    await worker.drainAll();
    sink.rejectRecipient = null;
    clock = start + 59_999;
    await worker.drainAll();
    expect(sink.mails).toHaveLength(0);
    clock = start + 60_000;
    await worker.drainAll();
    clock += 365 * 86_400_000;
    await worker.drainAll();
    expect(sink.mails.map((mail) => mail.to)).toEqual([['later@x.example']]);
    const notices = await fresh.database.db
      .selectFrom('notices')
      .select(['to_address', 'status', 'attempts'])
      .orderBy('id')
      .execute();
    expect(notices).toEqual([
      { to_address: 'later@x.example', status: 'sent', attempts: 1 },
      { to_address: 'gone@x.example', status: 'failed', attempts: 1 },
    ]);
  });
});
