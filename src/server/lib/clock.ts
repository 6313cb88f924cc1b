/**
 * The server's time. Everything the server stores or compares as a date (key and token expiry,
 * the rate-limit window, message times, `created`) reads it from here, handed down from app.ts,
 * so tests set any date (29 February, 31 March) and run days in milliseconds (issue 28 item 1).
 * Timeouts and intervals that only measure elapsed time (caches, leases, socket timeouts) keep
 * real time: no date is read from them.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that starts at `start` and then moves with real time: the date is set, not the pace. */
export function clockFrom(start: Date, real: Clock = systemClock): Clock {
  const offset = start.getTime() - real.now().getTime();
  return { now: () => new Date(real.now().getTime() + offset) };
}

/** A clock that stands still until told: for tests of what happens days later. */
export interface ManualClock extends Clock {
  set(date: Date): void;
  advance(milliseconds: number): void;
}

export function manualClock(start: Date): ManualClock {
  let time = start.getTime();
  return {
    now: () => new Date(time),
    set: (date) => {
      time = date.getTime();
    },
    advance: (milliseconds) => {
      time += milliseconds;
    },
  };
}
