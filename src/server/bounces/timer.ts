import type { Kysely } from 'kysely';
import { recordBounceAction } from '../audit/mail-records.ts';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { MemberLinks } from '../members/links.ts';
import { leaveList } from '../members/membership-changes.ts';
import type { PublicList } from '../members/public-list.ts';
import { memberPageLink } from '../members/workflow.ts';
import {
  bouncesDue,
  contactHasAnotherReceivingAddress,
  deleteBounceState,
  findBounceState,
  findBouncedAddress,
  lockBounceState,
  purgeStaleBounces,
  saveBounceState,
  type BounceRow,
} from '../repositories/bounces.repository.ts';
import { findMemberOfList } from '../repositories/member-directory.repository.ts';
import { LIFETIMES } from '../members/lifetimes.ts';
import { queueRemovalNotice, queueWarning } from './bounce-mail.ts';
import { listsOf } from './score.ts';
import { DAY_MS, type BounceSettings } from './settings.ts';

/** What the timer needs: the writes' unit of work, the members' links, the score's settings. */
export interface BounceTimerContext {
  db: Kysely<Database>;
  unitOfWork: UnitOfWork;
  links: MemberLinks;
  /** The installation's link key (tokens/signed-link.ts), for the member's page in a warning. */
  linkKey: Buffer;
  settings: BounceSettings;
}

/** Addresses one sweep handles at most; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

export interface SweepResult {
  warned: number;
  removed: number;
  /** Addresses resumed by someone else meanwhile, whose bounce pause ended. */
  resumed: number;
  /** Bounce states forgotten: no pause and nothing for `staleDays`. */
  forgotten: number;
}

/**
 * The bounce timer (issue 26 item 1, Mailman 3's periodic warnings), run by the mail service on
 * the server's clock: each address bounces paused gets a warning when one is due (the first at
 * the sweep after the pause, then `warningIntervalDays` apart, `warnings` in all), and one
 * interval after the last, its memberships of the lists that bounced are removed and the
 * administrators who take `bounce_removal` are told. An address whose contact has another address
 * that still receives keeps its memberships: they serve that one too. Each address is its own
 * transaction.
 */
export async function sweepBounces(ctx: BounceTimerContext, now: Date): Promise<SweepResult> {
  const result: SweepResult = { warned: 0, removed: 0, resumed: 0, forgotten: 0 };
  for (const due of await bouncesDue(ctx.db, now.toISOString(), SWEEP_BATCH)) {
    const done = await ctx.unitOfWork((trx) => actOn(trx, ctx, due.email_id, now));
    if (done) result[done] += 1;
  }
  const before = new Date(now.getTime() - ctx.settings.staleDays * DAY_MS).toISOString();
  result.forgotten = await purgeStaleBounces(ctx.db, before);
  return result;
}

async function actOn(
  db: Kysely<Database>,
  ctx: BounceTimerContext,
  emailId: number,
  now: Date,
): Promise<'warned' | 'removed' | 'resumed' | null> {
  await lockBounceState(db, emailId);
  const state = await findBounceState(db, emailId);
  // Cleared, or taken by another sweep, meanwhile.
  if (!state?.due_at || state.due_at > now.toISOString()) return null;
  const email = await findBouncedAddress(db, emailId);
  if (!email) return null;
  // Resumed by a write that did not clear the state (a contact's addresses replaced): it is over.
  if (email.paused === 0) {
    await deleteBounceState(db, emailId);
    return 'resumed';
  }
  const lists = await listsOf(db, emailId);
  const interval = ctx.settings.warningIntervalDays * DAY_MS;
  const next: BounceRow = { ...state };
  if (state.warnings < ctx.settings.warnings) {
    next.warnings = state.warnings + 1;
    next.warned_at = now.toISOString();
    next.due_at = new Date(now.getTime() + interval).toISOString();
    const [list] = lists;
    if (list) {
      const removalOn = new Date(
        now.getTime() + (ctx.settings.warnings - state.warnings) * interval,
      );
      const memberPage = memberPageLink(
        { linkKey: ctx.linkKey, links: ctx.links, now },
        list,
        { emailId, email: email.email },
        LIFETIMES.deliveryLinkDays,
      );
      await queueWarning(
        db,
        lists,
        email.email,
        state,
        { memberPage, warning: next.warnings, removalOn },
        now,
      );
      await recordBounceAction(db, now, {
        accountId: list.accountId,
        list,
        address: email.email,
        emailId,
        action: 'warn',
        score: state.score,
      });
    }
    await saveBounceState(db, next);
    return 'warned';
  }
  next.due_at = null;
  next.removed_at = now.toISOString();
  await saveBounceState(db, next);
  const left = (await contactHasAnotherReceivingAddress(db, email.contact_id, emailId))
    ? []
    : await leaveAll(db, lists, emailId);
  for (const { list, membershipId } of left)
    await recordBounceAction(db, now, {
      accountId: list.accountId,
      list,
      address: email.email,
      emailId,
      membershipId,
      action: 'remove',
      score: state.score,
    });
  await queueRemovalNotice(
    db,
    left.map(({ list }) => list),
    email.email,
    next,
    now,
  );
  return 'removed';
}

/** Ends the address's contact's memberships of `lists`; answers the lists it left, and how. */
async function leaveAll(
  db: Kysely<Database>,
  lists: readonly PublicList[],
  emailId: number,
): Promise<{ list: PublicList; membershipId: number | null }[]> {
  const left: { list: PublicList; membershipId: number | null }[] = [];
  for (const list of lists) {
    const member = await findMemberOfList(db, list.accountId, list.id, { emailId });
    if (member && (await leaveList(db, list, member)))
      left.push({ list, membershipId: member.membershipId ?? null });
  }
  return left;
}
