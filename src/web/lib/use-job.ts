import { useSyncExternalStore } from 'react';
import type { Job, JobState } from './job-runner.ts';

const noop = () => () => undefined;

/** The live state of a job (or null without one). */
export function useJobState<T>(job: Job<T> | null): JobState<T> | null {
  return useSyncExternalStore(job ? job.subscribe : noop, () => (job ? job.getState() : null));
}
