import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { DNS_DEFAULTS } from './dns-resolver.ts';
import { InboundBusyError, startInboundPool } from './inbound-work.ts';

describe('the inbound pool (SECURITY.md 29)', () => {
  it('reads on its threads, turns work away once its queue is full, and closes', async () => {
    const pool = startInboundPool(DNS_DEFAULTS);
    try {
      const raw = Buffer.from(
        `From: ada@example.org\r\nSubject: Hello\r\n\r\n${'A line of text.\r\n'.repeat(100_000)}`,
      );
      // More than its threads (a core each, but one) run and its queue holds, asked at once.
      const capacity = Math.max(1, os.availableParallelism() - 1) * 10;
      const outcomes = await Promise.allSettled(
        Array.from({ length: capacity + 10 }, () => pool.read({ raw, envelope: null })),
      );
      const read = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
      );
      expect(read[0]?.value).toMatchObject({ ok: true, message: { subject: 'Hello' } });
      expect(refused.length).toBeGreaterThanOrEqual(10);
      expect(refused.every((reason) => reason instanceof InboundBusyError)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
