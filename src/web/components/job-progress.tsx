import './job-progress.css';
import { useEffect, useState } from 'react';
import { formatResetTime, formatWait } from '../lib/rate-limit.ts';
import type { Job, JobState } from '../lib/job-runner.ts';

const STATUS_TEXT = {
  running: 'Working…',
  paused: 'Paused.',
  waiting: 'Waiting for the rate limit to reset.',
  cancelled: 'Cancelled.',
  done: 'Finished.',
} as const;

/** What the job panel shows and offers. */
export interface JobProgressProps<T> {
  title: string;
  job: Job<T>;
  state: JobState<T>;
  onDownloadFailures: () => void;
  onClose: () => void;
  /** The job's own account of its items, instead of "n succeeded, m failed" (an import's). */
  summary?: string;
  /** The rows the failures download holds (an import adds the rows it never sent). */
  failedCount?: number;
  /** Whether to list why items failed here (false: the caller lists them with more context). */
  listFailures?: boolean;
}

/** A running job: progress bar, counts, pause/resume/cancel, the rate-limit wait, the failures. */
export function JobProgress<T>({
  title,
  job,
  state,
  onDownloadFailures,
  onClose,
  summary,
  failedCount = state.failures.length,
  listFailures = true,
}: JobProgressProps<T>) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (state.status !== 'waiting') return;
    const timer = setInterval(() => setNow(new Date()), 1_000);
    return () => clearInterval(timer);
  }, [state.status]);
  const over = state.status === 'done' || state.status === 'cancelled';

  return (
    <section className="job" aria-label={title}>
      <h2>{title}</h2>
      <progress max={state.total} value={state.done} aria-label={`${title}: progress`}>
        {state.done} of {state.total}
      </progress>
      <p role="status">
        {STATUS_TEXT[state.status]}{' '}
        {summary ??
          `${state.done} of ${state.total} done: ${state.succeeded} succeeded, ${state.failures.length} failed.`}
      </p>
      {state.status === 'waiting' && state.waitingUntil && (
        <p className="notice" role="alert">
          The hourly API allowance is used up. The job continues by itself at{' '}
          <time dateTime={state.waitingUntil.toISOString()}>
            {formatResetTime(state.waitingUntil)}
          </time>{' '}
          ({formatWait(state.waitingUntil, now)}).
        </p>
      )}
      <div className="actions">
        {!over &&
          (state.status === 'paused' ? (
            <button type="button" className="button" onClick={job.resume}>
              Resume
            </button>
          ) : (
            <button type="button" className="button" onClick={job.pause}>
              Pause
            </button>
          ))}
        {!over && (
          <button type="button" className="button danger" onClick={job.cancel}>
            Cancel
          </button>
        )}
        {over && failedCount > 0 && (
          <button type="button" className="button" onClick={onDownloadFailures}>
            Download the {failedCount} failed {failedCount === 1 ? 'row' : 'rows'} (CSV)
          </button>
        )}
        {over && (
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
      {over && listFailures && state.failures.length > 0 && (
        <details>
          <summary>Why they failed</summary>
          <ul>
            {state.failures.slice(0, 50).map((failure, index) => (
              <li key={index}>{failure.message}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
