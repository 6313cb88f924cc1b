import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { purgeAuditRows } from '../repositories/audit.repository.ts';

const DAY_MS = 86_400_000;

/** How often the purge runs: entries expire by the day, so an hour's delay is nothing. */
export const AUDIT_PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * Removes the entries older than `days` by the server's clock (AUDIT_RETENTION_DAYS, issue 26
 * item 4); answers how many.
 */
export function purgeAudit(db: Kysely<Database>, now: Date, days: number): Promise<number> {
  return purgeAuditRows(db, new Date(now.getTime() - days * DAY_MS).toISOString());
}

/**
 * The app's purge timer: now and then, entries past the retention go, a chunk at a time. Its pace
 * is real time; the age it purges by is the server's clock, so a test moves the clock and waits a
 * tick. Several processes on one database each purge: deleting what another deleted is nothing.
 */
export function startAuditRetention(
  db: Kysely<Database>,
  options: { clock: Clock; days: number; intervalMs?: number; onError: (error: unknown) => void },
): { stop(): void } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => purgeAudit(db, options.clock.now(), options.days))
      .catch(options.onError);
  }, options.intervalMs ?? AUDIT_PURGE_INTERVAL_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
