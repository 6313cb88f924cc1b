import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deleteDeadTokens } from '../repositories/mail-tokens.repository.ts';
import { deleteExpiredRequests } from '../repositories/member-requests.repository.ts';
import { deleteOldThrottles } from '../repositories/public-throttles.repository.ts';
import { DAY_MS } from './lifetimes.ts';
import { PUBLIC_LIMITS } from './throttle.ts';

/**
 * What expires on the members' side (issue 25: "pending requests expire too"): requests past
 * their time (their tokens go with them), tokens used or expired, rate-limit counters of past
 * windows. Run by the mail service on a timer; answers how many requests ended.
 */
export async function purgeMembers(db: Kysely<Database>, now: Date): Promise<number> {
  const ended = await deleteExpiredRequests(db, now.toISOString());
  await deleteDeadTokens(db, now.toISOString(), new Date(now.getTime() - DAY_MS).toISOString());
  await deleteOldThrottles(db, Math.floor(now.getTime() / 1000) - PUBLIC_LIMITS.windowSeconds);
  return ended;
}

/** How often the purge runs: requests and tokens expire on the scale of days, so minutes will do. */
export const PURGE_INTERVAL_MS = 10 * 60_000;
