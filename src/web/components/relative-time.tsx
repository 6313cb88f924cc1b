import { useSyncExternalStore } from 'react';
import { formatExact, formatRelative } from '../lib/relative-time.ts';

/** One clock for every relative time on screen, ticking each minute while any is shown. */
const TICK_MS = 60_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/**
 * A time shown relative to now ("5 minutes ago"), with the exact date and time on hover (`title`)
 * and for screen readers, which read the exact form instead of the relative one.
 */
export function RelativeTime({ time }: { time: Date }) {
  const current = useSyncExternalStore(subscribe, () => now);
  const exact = formatExact(time);
  return (
    <time dateTime={time.toISOString()} title={exact}>
      <span aria-hidden="true">{formatRelative(time, new Date(current))}</span>
      <span className="visually-hidden">{exact}</span>
    </time>
  );
}
