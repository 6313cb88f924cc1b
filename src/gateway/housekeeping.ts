/**
 * Runs `task` every `everyMs` until the returned function stops it. The gateway's app owns one
 * (the purge of ended sessions and abandoned sign-ins) and stops it on close; tests give their own
 * and run the task themselves, without waiting.
 */
export type Schedule = (task: () => Promise<void>, everyMs: number) => () => void;

export const everyInterval: Schedule = (task, everyMs) => {
  const timer = setInterval(() => void task(), everyMs);
  // The purge never keeps the process alive on its own.
  timer.unref();
  return () => clearInterval(timer);
};

/** How often ended sessions and abandoned sign-ins are deleted. */
export const PURGE_EVERY_MS = 60_000;
