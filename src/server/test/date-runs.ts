/**
 * `npm test` runs the server tests whose outcome can hang on the date again, on SQLite, with the
 * server's clock set to each of these instants (TEST_SERVER_DATE, test-clock.ts; issue 28 item 1):
 * 29 February of a leap year, the 31st of a month whose next is shorter, the last day of November;
 * each late in the UTC day, so that an hour or a day later is the next day, the next month.
 */
export const TEST_DATES = [
  '2028-02-29T23:30:00Z',
  '2027-03-31T23:30:00Z',
  '2026-11-30T23:50:00Z',
] as const;

/**
 * The server test files run on TEST_DATES (paths under src/server/), chosen by what they exercise:
 * key expiry (expiry_months, the cache), OAuth codes, tokens, sessions and sign-in windows, the
 * rate-limit window, messages' and held mail's times, notices, retries and digests, `created`.
 * Not all: a date costs these about 55 CPU-seconds (some 35 s on two cores), the whole server
 * suite (heavy tests aside) about 150, most of it in tests that read no date (fuzz, the CLI, the
 * authorization matrix).
 * date-runs.test.ts fails when a test file reads or sets a date and is in neither list.
 */
export const DATE_SENSITIVE_TESTS = [
  'accounts.test.ts',
  'administrator-welcome.test.ts',
  'audit-log.test.ts',
  'held.test.ts',
  'lists.test.ts',
  'mail-digest.test.ts',
  'mail-growth.test.ts',
  'mail-notices.test.ts',
  'mail-retry.test.ts',
  'mail-workers.test.ts',
  'mail.test.ts',
  'members.test.ts',
  'messages.test.ts',
  'oauth/access-token-lifetime.test.ts',
  'oauth/authorize.test.ts',
  'oauth/bearer.test.ts',
  'oauth/gateway-sign-out.test.ts',
  'oauth/login.test.ts',
  'oauth/revocation.test.ts',
  'oauth/scopes.test.ts',
  'oauth/token.test.ts',
  'test/administrator-bounds.test.ts',
  'test/auth-cache.test.ts',
  'test/authentication.test.ts',
  'test/gateway-in-front.test.ts',
  'test/rate-limit.test.ts',
  'users.test.ts',
] as const;

/** Server test files that read or set a date and still need no other date, each with why. */
export const DATE_BLIND_TESTS: Record<string, string> = {
  'audit-recording.test.ts':
    'sets its own date (the last day of a month, late) and checks each entry’s time against it',
  'audit-secrets.test.ts': 'searches the entries for secrets: their times play no part',
  'cli.test.ts': 'the CLI, and the server it checks keys on, run on the machine’s clock',
  'mail-secrets.test.ts': '`serve` runs as a process, on the machine’s clock',
  'demo.test.ts': 'the demo writes its messages and keys with the machine’s clock (demo/demo.ts)',
  'lib/add-months.test.ts': 'fixed dates, no clock',
  'archive.test.ts': 'a manual clock from a fixed date: the links’ and passes’ hours are its own',
  'archive-pass.test.ts': 'fixed dates, no server',
  'archive-scale.test.ts': 'a manual clock from a fixed date; measures pages, prints, asserts no time',
  'custom-fields-api.test.ts': 'dates only the contacts it writes in bulk, with the server’s clock; reads no date back',
  'mail-bounces.test.ts': 'a stepped clock from a fixed date: the days it counts and skips are its own',
  'mail-stall.test.ts': 'elapsed time only: how long a GET waits beside a message being read',
  'mail-dmarc.test.ts': 'one digest collected at the server’s clock, whatever day it is; no window',
  'mail/outgoing/template.test.ts': 'a fixed date: the copy of a post, no clock',
  'mail/verp.test.ts': 'a fixed date: signed return paths, no server',
  'services/provisioning.test.ts': 'fixed dates, no clock',
  'mail-tls.test.ts': 'STARTTLS: the listener’s clock only stamps what it takes',
  'mail-dkim.test.ts':
    'a signature checked; the worker’s clock only schedules retries (mail-retry)',
  'contact-documents.test.ts': 'Date.now() measures a deadline: elapsed time only',
  'test/heavy-work.test.ts': 'chunked deletes; the clock only stamps the rows it seeds',
  'test/read-isolation.test.ts': 'a rolled-back row; the clock only stamps it',
  'test/mail-crash.test.ts': 'heavy (scripts/test.ts HEAVY_TESTS); Date.now() measures a deadline',
  'test/spec-only.test.ts':
    'EXTENSIONS=off only drops headers; Retry-After is reckoned as rate-limit.test.ts checks it',
  'test/date-runs.test.ts': 'this check: it names the marks it looks for',
};
