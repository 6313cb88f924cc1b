import { lazy, Suspense, type ComponentType } from 'react';
import type { JobProgressProps } from './job-progress.tsx';

/** The job panel loads with the first job a user starts, as the job runner does (lib/start-job.ts). */
const Panel = lazy(() =>
  import('./job-progress.tsx').then((module) => ({
    default: module.JobProgress as ComponentType<JobProgressProps<unknown>>,
  })),
);

/** `JobProgress`, loaded on first use; meanwhile a status line says the job is starting. */
export function LazyJobProgress<T>(props: JobProgressProps<T>) {
  return (
    <Suspense
      fallback={
        <p className="job" role="status">
          Starting {props.title.toLowerCase()}…
        </p>
      }
    >
      <Panel {...(props as JobProgressProps<unknown>)} />
    </Suspense>
  );
}
