import { clockFrom, systemClock, type Clock } from '../lib/clock.ts';

/**
 * The clock a test server runs on: real time, or, with `TEST_SERVER_DATE` (an ISO date-time), a
 * clock that starts at that instant and moves with real time. `npm test` runs the date-sensitive
 * suites again on 29 February, 31 March and 30 November (date-runs.ts), so no test
 * leans on today's date (issue 28 item 1). Each test file gets its own, started when first asked.
 */
let shared: Clock | undefined;

export function testClock(): Clock {
  shared ??= clockOf(process.env.TEST_SERVER_DATE);
  return shared;
}

/** A clock that moves with real time and that a test also moves on: days later in no time. */
export interface SteppedClock extends Clock {
  advance(milliseconds: number): void;
}

/**
 * From `start` (by default the test clock's now) at real pace, plus what `advance` added: for a
 * test that skips days while everything else, the auth cache's and the outbox's real-time
 * measures included, keeps its pace.
 */
export function steppedClock(start: Date = testClock().now()): SteppedClock {
  const base = clockFrom(start);
  let ahead = 0;
  return {
    now: () => new Date(base.now().getTime() + ahead),
    advance: (milliseconds) => {
      ahead += milliseconds;
    },
  };
}

function clockOf(date: string | undefined): Clock {
  if (!date) return systemClock;
  const start = new Date(date);
  if (Number.isNaN(start.getTime())) throw new Error(`TEST_SERVER_DATE is not a date: ${date}`);
  return clockFrom(start);
}
