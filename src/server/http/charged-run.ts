import {
  chargeOrThrow,
  countObjects,
  RateLimited,
  refund,
  type Payer,
} from '../rate-limit/charge.ts';
import type { MaybePromise } from '../lib/maybe-promise.ts';
import type { RateCharge } from '../rate-limit/rate-limiter.ts';
import type { AppDeps } from './app-deps.ts';
import type { OperationPolicy } from './operation-policy.ts';

/**
 * What a handler may reserve as it learns its cost: `reserveUpTo(n)` raises the request's
 * reservation to `n` objects before the work that returns them, or answers 429 (SECURITY.md 30).
 */
export interface CostMeter {
  reserveUpTo(objects: number): Promise<void>;
}

/**
 * SECURITY.md 30: the cost is known and checked before the work, so nothing runs with no allowance
 * left (a search that found nothing was charged 0 and ran with the allowance spent, and a page of
 * 1000 or a list's member ids were read in full before a 429: issue 16 finding 1). Every request
 * reserves one object first (a write affects one; a read returns at least one). A read that can
 * return more reserves its upper bound through the meter once it is known cheaply and before the
 * read that returns them: a page, its `limit` or the rows left past its offset if fewer (a count
 * the services read first); a list, its member count (a list update's before its write). After the
 * work a read is charged what it returned, at least one (spec §8 rule 1: a query that finds nothing
 * counts as one), a write one object and the member ids it answers: what was reserved and not
 * returned is given back, and what was returned beyond it (rows added meanwhile) is charged. A
 * failed request gives everything back, unless its operation's `whenWorkFails` keeps one object.
 */
export async function runCharged<T>(
  deps: AppDeps,
  payer: Payer,
  policy: OperationPolicy,
  isWrite: boolean,
  work: (meter: CostMeter) => Promise<T>,
): Promise<{ result: T; charge: RateCharge }> {
  const reservation = new Reservation(deps, payer);
  // What is in memory answers at once; only the database's counter is awaited (lib/maybe-promise.ts).
  const first = reservation.upTo(1);
  if (first instanceof Promise) await first;
  let result: T;
  try {
    result = await work({ reserveUpTo: async (objects) => reservation.upTo(objects) });
  } catch (error) {
    // Not all given back for a fetch from elsewhere: a failed fetch cost the remote host as much.
    await reservation.settle(policy.whenWorkFails === 'keep' ? 1 : 0);
    // Refused partway: its X-RateLimit-Remaining counts what was just given back.
    if (error instanceof RateLimited)
      error.givenBack(reservation.givenBackIn(error.charge.windowStart));
    throw error;
  }
  // A write counts its one object (spec §8 rule 1: "updating a single object counts as 1"), and
  // the member ids its answer carries (a list update's, SECURITY.md 30).
  const returned =
    isWrite && !policy.chargesMemberIds
      ? 1
      : Math.max(1, countObjects(result, policy.chargesMemberIds));
  try {
    const settled = reservation.settle(returned);
    return { result, charge: settled instanceof Promise ? await settled : settled };
  } catch (error) {
    // A committed write is answered, not refused over member ids added after its cost was
    // reserved: a 429 would tell its client that nothing was done.
    if (!(isWrite && error instanceof RateLimited)) throw error;
    return { result, charge: reservation.held() };
  }
}

/** The objects a request has taken from its payer's allowance, in the windows it took them in. */
class Reservation {
  private readonly taken: { charge: RateCharge; objects: number }[] = [];
  private total = 0;
  /** What was given back, by the window it was taken in. */
  private readonly returned = new Map<number, number>();
  private readonly deps: AppDeps;
  private readonly payer: Payer;

  constructor(deps: AppDeps, payer: Payer) {
    this.deps = deps;
    this.payer = payer;
  }

  /** Takes what `objects` needs beyond what is held, or throws the 429 (charge.ts). */
  upTo(objects: number): MaybePromise<void> {
    const more = objects - this.total;
    if (more <= 0) return;
    const taken = chargeOrThrow(this.deps, this.payer, more);
    if (taken instanceof Promise) return taken.then((charge) => this.hold(charge, more));
    this.hold(taken, more);
  }

  /**
   * Ends with `objects` charged: takes what is missing (a 429 then keeps what was held: the work
   * was done) or gives back the rest, newest first, each to the window it was taken in (one atomic
   * statement each). Answers the charge the response's headers describe.
   */
  settle(objects: number): MaybePromise<RateCharge> {
    if (objects > this.total) {
      const more = this.upTo(objects);
      if (more instanceof Promise) return more.then(() => this.current(0));
    }
    if (objects === this.total) return this.current(0);
    return this.giveBack(this.total - objects);
  }

  /** The counter as the objects held left it. */
  held(): RateCharge {
    return this.current(0);
  }

  /** How many objects taken in the window starting at `windowStart` were given back. */
  givenBackIn(windowStart: number): number {
    return this.returned.get(windowStart) ?? 0;
  }

  private hold(charge: RateCharge, objects: number): void {
    this.taken.push({ charge, objects });
    this.total += objects;
  }

  private async giveBack(surplus: number): Promise<RateCharge> {
    let left = surplus;
    for (let i = this.taken.length - 1; i >= 0 && left > 0; i -= 1) {
      const entry = this.taken[i] as { charge: RateCharge; objects: number };
      const back = Math.min(left, entry.objects);
      await refund(this.deps, this.payer, entry.charge, back);
      const window = entry.charge.windowStart;
      this.returned.set(window, (this.returned.get(window) ?? 0) + back);
      entry.objects -= back;
      left -= back;
    }
    this.total -= surplus;
    return this.current(surplus);
  }

  /** The counter as this request left it, `givenBack` after its last charge. */
  private current(givenBack: number): RateCharge {
    const last = this.taken.at(-1)?.charge;
    if (!last) throw new Error('A request settled before it reserved');
    return givenBack === 0 ? last : { ...last, used: last.used - givenBack };
  }
}
