import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { DATE_BLIND_TESTS, DATE_SENSITIVE_TESTS } from './date-runs.ts';

/**
 * The date runs of `npm test` (date-runs.ts) take a chosen list of server test files: a new one
 * that reads or sets a date must join it, or say why it need not, or it would never meet
 * 29 February (issue 28 item 1).
 */
const root = path.resolve(import.meta.dirname, '..');

/** What a test reads or sets a date with: the server's clock, expiries, tokens, windows, mail's schedule, the machine's time. */
const READS_A_DATE =
  /\.clock\b|\b(testClock|steppedClock|manualClock|clockFrom)\b|expiry_months|expiryMonths|expires_at|key_expiry|\bobtainTokens\b|retry-after|x-ratelimit-reset|LOGIN_WINDOW_SECONDS|\bqueueDigests\b|\bOutboxWorker\b|\binsertHeldMessage\b|Date\.now\(\)|new Date\(/;

const serverTests = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => file.endsWith('.test.ts'))
  .sort();

it('runs every server test file that reads or sets a date on the other dates, or says why not', () => {
  const listed = new Set<string>([...DATE_SENSITIVE_TESTS, ...Object.keys(DATE_BLIND_TESTS)]);
  const unlisted = serverTests.filter(
    (file) => !listed.has(file) && READS_A_DATE.test(readFileSync(path.join(root, file), 'utf8')),
  );
  expect(
    unlisted,
    'add each to DATE_SENSITIVE_TESTS, or with why to DATE_BLIND_TESTS, in src/server/test/date-runs.ts',
  ).toEqual([]);
});

it('lists only test files that exist, each in one list', () => {
  const named = [...DATE_SENSITIVE_TESTS, ...Object.keys(DATE_BLIND_TESTS)];
  expect(named.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  expect(named.filter((file, index) => named.indexOf(file) !== index)).toEqual([]);
});
