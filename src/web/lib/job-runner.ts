import { ApiError, RateLimitedError } from '../../api/errors.ts';

/**
 * A visible batch job over many API calls (bulk edits, imports): a few calls at a time, pause and
 * resume, cancel, waiting out the rate limit (spec §8) until the reset the server names, retry with
 * back-off on transient failures, and at the end the rows that failed and why.
 */

export type JobStatus = 'running' | 'paused' | 'waiting' | 'cancelled' | 'done';

export interface JobFailure<T> {
  item: T;
  message: string;
}

export interface JobState<T> {
  status: JobStatus;
  total: number;
  /** Items finished, successfully or not. */
  done: number;
  succeeded: number;
  failures: JobFailure<T>[];
  /** While `waiting`: when the hourly allowance resets (RateLimitedError.resetAt). */
  waitingUntil: Date | null;
  /** While `waiting`, how many 429s in a row (the back-off grows with it). */
  rateLimitedTimes: number;
}

export interface JobOptions {
  /** Calls in flight at once. */
  concurrency?: number;
  /** Retries of a transient failure (network, 5xx) before the item counts as failed. */
  maxRetries?: number;
  /** First back-off delay; doubles each time, capped at `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Added to a reset time before trying again (clocks differ a little). */
  resetMarginMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  describe?: (error: unknown) => string;
}

export interface Job<T> {
  getState: () => JobState<T>;
  subscribe: (listener: () => void) => () => void;
  pause: () => void;
  resume: () => void;
  cancel: () => void;
  /** Resolves once every item is done or the job is cancelled. */
  finished: Promise<JobState<T>>;
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A network failure or a server error may pass; a 4xx will not change on retry. */
export function isTransient(error: unknown): boolean {
  return error instanceof ApiError && !(error instanceof RateLimitedError)
    ? error.status === 0 || error.status >= 500
    : !(error instanceof ApiError);
}

export function runJob<T>(
  items: readonly T[],
  work: (item: T, signal: AbortSignal) => Promise<unknown>,
  options: JobOptions = {},
): Job<T> {
  const {
    concurrency = 4,
    maxRetries = 3,
    backoffMs = 1_000,
    maxBackoffMs = 60_000,
    resetMarginMs = 1_000,
    now = Date.now,
    sleep = defaultSleep,
    describe = (error: unknown) => (error instanceof Error ? error.message : String(error)),
  } = options;

  let state: JobState<T> = {
    status: items.length === 0 ? 'done' : 'running',
    total: items.length,
    done: 0,
    succeeded: 0,
    failures: [],
    waitingUntil: null,
    rateLimitedTimes: 0,
  };
  const listeners = new Set<() => void>();
  const set = (change: Partial<JobState<T>>) => {
    state = { ...state, ...change };
    for (const listener of listeners) listener();
  };

  const cancelled = new AbortController();
  // Pause and the rate-limit wait hold every worker at a gate before its next call.
  let paused = false;
  let resumeGate: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  let rateLimitedUntil = 0;
  let consecutive429 = 0;
  let next = 0;

  async function passGate() {
    for (;;) {
      if (cancelled.signal.aborted) return;
      if (paused && gate) {
        await gate;
        continue;
      }
      const wait = rateLimitedUntil - now();
      if (wait > 0) {
        await sleep(wait, cancelled.signal);
        continue;
      }
      if (state.status === 'waiting') set({ status: 'running', waitingUntil: null });
      return;
    }
  }

  async function attempt(item: T) {
    for (let retry = 0; ;) {
      await passGate();
      if (cancelled.signal.aborted) return;
      try {
        await work(item, cancelled.signal);
        consecutive429 = 0;
        set({ done: state.done + 1, succeeded: state.succeeded + 1, rateLimitedTimes: 0 });
        return;
      } catch (error) {
        if (cancelled.signal.aborted) return;
        if (error instanceof RateLimitedError) {
          consecutive429 += 1;
          // Wait for the reset the server names; if that has passed, back off (doubling).
          const backoff = Math.min(backoffMs * 2 ** (consecutive429 - 1), maxBackoffMs);
          const until = Math.max(error.resetAt.getTime() + resetMarginMs, now() + backoff);
          rateLimitedUntil = Math.max(rateLimitedUntil, until);
          set({
            status: paused ? 'paused' : 'waiting',
            waitingUntil: new Date(rateLimitedUntil),
            rateLimitedTimes: consecutive429,
          });
          continue;
        }
        if (isTransient(error) && retry < maxRetries) {
          await sleep(Math.min(backoffMs * 2 ** retry, maxBackoffMs), cancelled.signal);
          retry += 1;
          continue;
        }
        set({
          done: state.done + 1,
          failures: [...state.failures, { item, message: describe(error) }],
        });
        return;
      }
    }
  }

  async function worker() {
    while (!cancelled.signal.aborted && next < items.length) {
      const item = items[next] as T;
      next += 1;
      await attempt(item);
    }
  }

  const finished = Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, worker),
  ).then(() => {
    if (!cancelled.signal.aborted) set({ status: 'done', waitingUntil: null });
    return state;
  });

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pause() {
      if (paused || state.status === 'done' || state.status === 'cancelled') return;
      paused = true;
      gate = new Promise((resolve) => (resumeGate = resolve));
      set({ status: 'paused' });
    },
    resume() {
      if (!paused) return;
      paused = false;
      resumeGate?.();
      gate = null;
      set({
        status: rateLimitedUntil > now() ? 'waiting' : 'running',
      });
    },
    cancel() {
      if (state.status === 'done' || state.status === 'cancelled') return;
      cancelled.abort();
      paused = false;
      resumeGate?.();
      set({ status: 'cancelled', waitingUntil: null });
    },
    finished,
  };
}
