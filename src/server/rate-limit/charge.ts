import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { HttpError } from '../http/http-error.ts';
import { JsonText } from '../http/json-text.ts';
import type { MaybePromise } from '../lib/maybe-promise.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { ALLOWANCE_PER_CONTACT, type RateCharge } from './rate-limiter.ts';

/**
 * Who pays for a request (spec §8): its account, or, for a group-wide call (the accounts of
 * §4.7, the global users of §4.8 rule 2), the group. Spec §8 counts per account and says nothing
 * of calls that belong to none; they were never limited (issue 16 finding 6). The reference server
 * gives the group a fixed allowance of its own (GROUP_RATE_LIMIT, by default what an account of the
 * default plan gets) rather than the sum of its accounts': a sum would grow with every account a
 * global key creates, and each account's own budget stays its own.
 */
export interface Payer {
  /** The counter's key: the account's id, or GROUP_COUNTER. */
  counter: number;
  allowance: number;
}

/** Account ids start at 1: counter 0 is the group's. */
const GROUP_COUNTER = 0;

export function payerOf(deps: AppDeps, account: AccountRow | null): Payer {
  return account
    ? { counter: account.id, allowance: ALLOWANCE_PER_CONTACT * account.max_contacts }
    : { counter: GROUP_COUNTER, allowance: deps.config.groupRateLimit };
}

/** Takes `cost` objects from the payer's allowance, or answers 429 with when to come back. */
export function chargeOrThrow(deps: AppDeps, payer: Payer, cost: number): MaybePromise<RateCharge> {
  const charge = deps.rateLimiter.charge(payer.counter, cost, payer.allowance, deps.clock.now());
  return charge instanceof Promise
    ? charge.then((taken) => acceptedCharge(taken, payer.allowance, deps))
    : acceptedCharge(charge, payer.allowance, deps);
}

export function refund(
  deps: AppDeps,
  payer: Payer,
  charge: RateCharge,
  amount: number,
): Promise<void> {
  return deps.rateLimiter.refund(payer.counter, charge.windowStart, amount);
}

/**
 * The charge when it fits the allowance; otherwise 429 (spec §8) with when to come back: standard
 * HTTP's Retry-After always, the `X-RateLimit-*` extension headers unless EXTENSIONS=off.
 */
function acceptedCharge(charge: RateCharge, allowance: number, deps: AppDeps): RateCharge {
  if (!charge.ok)
    throw new RateLimited(charge, allowance, deps.config.extensions, deps.clock.now());
  return charge;
}

/**
 * Spec §8's 429, with the counter it was refused at: a request refused partway through its work
 * gives back what it held (http/charged-run.ts), and its `X-RateLimit-Remaining` then says so.
 */
export class RateLimited extends HttpError {
  readonly charge: RateCharge;
  private readonly allowance: number;

  constructor(charge: RateCharge, allowance: number, extensions: boolean, now: Date) {
    const retryAfter = Math.max(1, charge.resetAt - Math.floor(now.getTime() / 1000));
    super(429, 'The hourly API rate limit is exceeded', {
      'retry-after': String(retryAfter),
      ...(extensions ? rateHeaders(charge, allowance) : {}),
    });
    this.charge = charge;
    this.allowance = allowance;
  }

  /** The request gave back `objects` of the refused charge's window after the refusal. */
  givenBack(objects: number): void {
    if (objects === 0 || !('x-ratelimit-remaining' in this.headers)) return;
    const after = rateHeaders({ ...this.charge, used: this.charge.used - objects }, this.allowance);
    this.headers['x-ratelimit-remaining'] = after['x-ratelimit-remaining'] as string;
  }
}

/** Reference-server extension: the allowance, what is left of it and when it resets (Unix seconds). */
function rateHeaders(charge: RateCharge, allowance: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(allowance),
    'x-ratelimit-remaining': String(Math.max(0, allowance - charge.used)),
    'x-ratelimit-reset': String(charge.resetAt),
  };
}

/**
 * Spec §8 rule 1: a single object counts 1, a collection the number of objects returned, and
 * (SECURITY.md 30) the identifiers returned inside them too: a list's `contacts` (spec §2.4) holds
 * one id per member, and GET /lists/ answered 190,043 of them (1.1 MB) for the price of 4 objects
 * (issue 16 finding 2). They are charged rather than left out: spec §2.4 makes `contacts` a field of
 * every list object and §4.4's get all answers "list objects", with no carve-out for collections
 * like §2.7's for accounts, so clients in production may read them there (the dashboard counts
 * members with them). What is returned is what is charged. `withMemberIds`: the operation's answer
 * carries them (`chargesMemberIds` in http/operation-policy.ts).
 */
export function countObjects(result: unknown, withMemberIds: boolean): number {
  if (result instanceof JsonText) return result.objects;
  const items = Array.isArray(result)
    ? (result as unknown[])
    : Array.isArray((result as { data?: unknown } | null)?.data)
      ? (result as { data: unknown[] }).data
      : [result];
  if (!withMemberIds) return items.length;
  let count = items.length;
  for (const item of items) {
    const ids = (item as { contacts?: unknown } | null)?.contacts;
    if (Array.isArray(ids)) count += ids.length;
  }
  return count;
}

export function setRateHeaders(reply: FastifyReply, charge: RateCharge, allowance: number): void {
  reply.headers(rateHeaders(charge, allowance));
}
