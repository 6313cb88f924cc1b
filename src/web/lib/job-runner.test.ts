import { describe, expect, it } from 'vitest';
import { ApiError, RateLimitedError } from '../../api/errors.ts';
import { runJob, type JobState, type JobStatus } from './job-runner.ts';

/** A fake clock: sleeping advances it at once and records how long was asked. */
function fakeClock(start = 1_000_000) {
  let time = start;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      time += ms;
      await Promise.resolve();
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('runJob', () => {
  it('runs every item, at most `concurrency` at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    const job = runJob(
      Array.from({ length: 20 }, (_, i) => i),
      async (n) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await tick();
        seen.push(n);
        inFlight -= 1;
      },
      { concurrency: 3 },
    );
    const state = await job.finished;
    expect(state).toMatchObject({
      status: 'done',
      total: 20,
      done: 20,
      succeeded: 20,
      failures: [],
    });
    expect(most).toBe(3);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('records a refused item with the reason and goes on', async () => {
    const job = runJob([1, 2, 3], (n) =>
      n === 2 ? Promise.reject(new ApiError(400, 'list: no such list')) : Promise.resolve(),
    );
    const state = await job.finished;
    expect(state.succeeded).toBe(2);
    expect(state.failures).toEqual([{ item: 2, message: 'list: no such list' }]);
  });

  it('retries a transient failure with a doubling back-off, then gives up', async () => {
    const clock = fakeClock();
    const calls: Record<string, number> = { a: 0, b: 0 };
    const job = runJob(
      ['a', 'b'],
      (key) => {
        calls[key] = (calls[key] ?? 0) + 1;
        if (key === 'a' && (calls.a ?? 0) < 3) return Promise.reject(new ApiError(503, 'busy'));
        if (key === 'b') return Promise.reject(new ApiError(0, 'offline'));
        return Promise.resolve();
      },
      { concurrency: 1, maxRetries: 3, backoffMs: 100, ...clock },
    );
    const state = await job.finished;
    expect(calls).toEqual({ a: 3, b: 4 });
    expect(clock.sleeps).toEqual([100, 200, 100, 200, 400]);
    expect(state.succeeded).toBe(1);
    expect(state.failures).toEqual([{ item: 'b', message: 'offline' }]);
  });

  it('on 429 waits until the reset the server names, shows it, and retries the same item', async () => {
    const clock = fakeClock();
    const resetAt = new Date(clock.now() + 30_000);
    let refused = false;
    const done: number[] = [];
    const statuses: { status: JobStatus; until: number | null }[] = [];
    const job = runJob(
      [1, 2, 3],
      (n) => {
        if (n === 2 && !refused) {
          refused = true;
          return Promise.reject(new RateLimitedError('Rate limit exceeded', resetAt, 6));
        }
        done.push(n);
        return Promise.resolve();
      },
      { concurrency: 1, resetMarginMs: 500, ...clock },
    );
    job.subscribe(() => {
      const s: JobState<number> = job.getState();
      statuses.push({ status: s.status, until: s.waitingUntil?.getTime() ?? null });
    });
    const state = await job.finished;
    expect(done).toEqual([1, 2, 3]);
    expect(state.failures).toEqual([]);
    expect(clock.sleeps).toEqual([30_500]);
    expect(statuses).toContainEqual({ status: 'waiting', until: resetAt.getTime() + 500 });
    expect(state.status).toBe('done');
  });

  it('backs off, doubling, when the server still refuses after the reset', async () => {
    const clock = fakeClock();
    let refusals = 3;
    const job = runJob(
      [1],
      () =>
        refusals-- > 0
          ? Promise.reject(new RateLimitedError('x', new Date(clock.now() - 1), null))
          : Promise.resolve(),
      { backoffMs: 1_000, resetMarginMs: 0, ...clock },
    );
    const state = await job.finished;
    expect(state.succeeded).toBe(1);
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000]);
  });

  it('pauses before the next call until resumed; cancel stops what is left', async () => {
    const started: number[] = [];
    let release: () => void = () => undefined;
    const job = runJob(
      [1, 2, 3, 4],
      (n) => {
        started.push(n);
        return n === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
      { concurrency: 1 },
    );
    await tick();
    expect(started).toEqual([1]);
    job.pause();
    expect(job.getState().status).toBe('paused');
    release();
    await tick();
    await tick();
    expect(started).toEqual([1]);
    expect(job.getState().done).toBe(1);
    job.resume();
    await job.finished;
    expect(started).toEqual([1, 2, 3, 4]);

    const stopped: number[] = [];
    const other = runJob(
      [1, 2, 3],
      async (n) => {
        stopped.push(n);
        await tick();
      },
      { concurrency: 1 },
    );
    await tick();
    other.cancel();
    const state = await other.finished;
    expect(state.status).toBe('cancelled');
    expect(stopped.length).toBeLessThan(3);
  });

  it('an empty job is done at once', async () => {
    expect((await runJob([], () => Promise.resolve()).finished).status).toBe('done');
  });
});
