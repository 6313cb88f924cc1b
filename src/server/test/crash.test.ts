import { expect, it } from 'vitest';
import { runCrashRounds } from './crash-harness.ts';
import { describeEachDialect } from './harness.ts';

// SECURITY.md 23, small: five kills per database (`npm run bench -- --crash 100` runs the large one).
describeEachDialect('crash safety', (dialect) => {
  it(
    'keeps every acknowledged write, whole and with its audit entry, across five kills',
    { timeout: 120_000 },
    async () => {
      const report = await runCrashRounds(dialect, 5);
      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report).toMatchObject({ missing: 0, halfWritten: 0, unrecorded: 0, integrity: 'ok' });
    },
  );
});
