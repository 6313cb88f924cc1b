import { useRef, useState } from 'react';
import type { Job, JobOptions } from './job-runner.ts';

type Work<T> = (item: T, signal: AbortSignal) => Promise<unknown>;

/** Starts a job once its code has loaded: null while another is starting or when it cannot load. */
export type StartJob = <T>(
  items: readonly T[],
  work: Work<T>,
  options?: JobOptions,
) => Promise<Job<T> | null>;

/**
 * `runJob` (job-runner.ts), its code loaded when a user starts the first job: pages that offer a
 * bulk action or an import carry none of it until then (issue 17 item 9). `start` answers the
 * running job, or null while one is still starting (a second click) or when the code cannot load;
 * `loadError` then says so.
 */
export function useStartJob(): { start: StartJob; loadError: Error | null } {
  const starting = useRef(false);
  const [loadError, setLoadError] = useState<Error | null>(null);
  async function start<T>(
    items: readonly T[],
    work: Work<T>,
    options?: JobOptions,
  ): Promise<Job<T> | null> {
    if (starting.current) return null;
    starting.current = true;
    setLoadError(null);
    try {
      const { runJob } = await import('./job-runner.ts');
      return runJob(items, work, options);
    } catch (cause) {
      setLoadError(
        new Error('The job could not start; the dashboard may have been updated. Reload it.', {
          cause,
        }),
      );
      return null;
    } finally {
      starting.current = false;
    }
  }
  return { start, loadError };
}
