import type { FastifyInstance } from 'fastify';
import type { SessionStore } from './session-store.ts';

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

/**
 * Ended sessions and abandoned sign-ins leave the database on the app's timer, not on a request's
 * time; the timer stops when the app closes.
 */
export function registerPurge(
  app: FastifyInstance,
  store: SessionStore,
  now: () => number,
  schedule: Schedule,
): void {
  const stop = schedule(async () => {
    try {
      await store.purgeExpired(now());
    } catch (error) {
      app.log.warn({ err: error }, 'purging ended sessions failed');
    }
  }, PURGE_EVERY_MS);
  app.addHook('onClose', async () => stop());
}
