import type { Kysely } from 'kysely';
import { recordBounceAction } from '../audit/mail-records.ts';
import type { Database } from '../db/schema.ts';
import { findPublicListById, type PublicList } from '../members/public-list.ts';
import {
  bounceListsOf,
  findBounceState,
  forgetBounceLists,
  lockBounceState,
  noteBounceList,
  saveBounceState,
  type BounceRow,
} from '../repositories/bounces.repository.ts';
import { findMemberOfList, setEmailPaused } from '../repositories/member-directory.repository.ts';
import { dayOf } from '../tokens/signed-link.ts';
import { queuePauseNotice } from './bounce-mail.ts';
import type { BounceKind, BounceReport } from './report.ts';
import type { BounceSettings } from './settings.ts';

/** A delivery we made: its list and address row (the VERP token's, or the outbox row's). */
export interface BounceTarget {
  accountId: number;
  listId: number;
  emailId: number;
}

/** What one bounce did to the address's score. */
export type BounceEffect =
  /** A hard failure counted; `paused` when the score reached the threshold with it. */
  | 'counted'
  | 'paused'
  /** A hard failure on a day that already counted, or of an address bounces paused already. */
  | 'recorded'
  /** A temporary failure: recorded as the last bounce, never counted. */
  | 'temporary'
  /** The address is no member of the list (it left): nothing recorded. */
  | 'not-a-member';

/**
 * One bounce of a delivery we made (issue 26 item 1, Mailman 3's bounce score), in the caller's
 * transaction: a hard failure counts at most once a UTC day; a score whose last count is older
 * than `staleDays` starts again at 1 (the old lists forgotten); at `threshold` the address is
 * paused (spec §2.2 `paused`), with when and why, and the administrators who take `bounce`
 * notices are told. A temporary failure is recorded as the last bounce and counts nothing. The
 * warnings and the removal are the timer's (timer.ts).
 */
export async function recordBounce(
  db: Kysely<Database>,
  target: BounceTarget,
  report: BounceReport & { kind: BounceKind },
  now: Date,
  settings: BounceSettings,
): Promise<BounceEffect> {
  await lockBounceState(db, target.emailId);
  const member = await findMemberOfList(db, target.accountId, target.listId, {
    emailId: target.emailId,
  });
  if (member?.membershipId == null) return 'not-a-member';
  const at = now.toISOString();
  const before = await findBounceState(db, target.emailId);
  const state: BounceRow = {
    ...(before ?? fresh(target)),
    last_at: at,
    last_kind: report.kind,
    last_status: report.status,
    last_reason: report.reason,
  };
  const effect = score(state, report.kind, now, settings);
  if (effect === 'counted' && before?.counted_at && isStale(before.counted_at, now, settings))
    await forgetBounceLists(db, target.emailId);
  await saveBounceState(db, state);
  if (report.kind === 'hard') await noteBounceList(db, target.emailId, target.listId, at);
  if (effect !== 'counted' || state.score < settings.threshold) return effect;

  state.paused_at = at;
  state.warnings = 0;
  state.warned_at = null;
  // The first warning goes at the timer's next sweep (timer.ts), the rest an interval apart.
  state.due_at = at;
  await saveBounceState(db, state);
  await setEmailPaused(db, target.emailId, true);
  const lists = await listsOf(db, target.emailId);
  const tipped = lists.find((list) => list.id === target.listId);
  // Issue 26 item 4: the pause is in the audit log, the system's, on the list whose bounce made it.
  if (tipped)
    await recordBounceAction(db, now, {
      accountId: target.accountId,
      list: tipped,
      address: member.email,
      emailId: target.emailId,
      action: 'pause',
      score: state.score,
      reason: state.last_status ?? state.last_reason,
    });
  await queuePauseNotice(db, lists, member.email, state, settings, now);
  return 'paused';
}

function fresh(target: BounceTarget): BounceRow {
  return {
    email_id: target.emailId,
    account_id: target.accountId,
    score: 0,
    counted_at: null,
    last_at: '',
    last_kind: 'hard',
    last_status: null,
    last_reason: '',
    paused_at: null,
    warnings: 0,
    warned_at: null,
    due_at: null,
    removed_at: null,
  };
}

/** The score's rules on `state` (changed in place); answers what the bounce did. */
function score(state: BounceRow, kind: BounceKind, now: Date, settings: BounceSettings) {
  if (kind === 'temporary') return 'temporary' as const;
  if (state.paused_at !== null) return 'recorded' as const;
  const last = state.counted_at;
  if (last !== null && dayOf(new Date(last)) === dayOf(now)) return 'recorded' as const;
  state.score = last !== null && isStale(last, now, settings) ? 1 : state.score + 1;
  state.counted_at = now.toISOString();
  return 'counted' as const;
}

/** Mailman's bounce_info_stale_after: the last count is more than `staleDays` days back. */
function isStale(countedAt: string, now: Date, settings: BounceSettings): boolean {
  return dayOf(now) - dayOf(new Date(countedAt)) > settings.staleDays;
}

/** The lists whose deliveries to the address failed, the latest first, as their members see them. */
export async function listsOf(db: Kysely<Database>, emailId: number): Promise<PublicList[]> {
  const lists: PublicList[] = [];
  for (const { id } of (await bounceListsOf(db, [emailId])).get(emailId) ?? []) {
    const list = await findPublicListById(db, id);
    if (list) lists.push(list);
  }
  return lists;
}
