import * as z from 'zod/mini';
import { Id, ListName, pageOf, pageQuery } from '../primitives.ts';

/**
 * Reference-server extension (operations.ts `bounces.*`, issue 26): the bounce state of the
 * addresses whose mail bounced, after GNU Mailman 3's bounce score. Spec v2 has `paused` on an
 * address (§2.2) and the `bounce` and `bounce_removal` notifications (§2.6), but no way to see why
 * an address is paused or to undo it: these answer the score, the last bounce and the pause, and
 * clear them. Kept off the spec's email object, whose answers (and stored contact documents) stay
 * exactly spec v2's.
 */
export const BOUNCE_PAGE_LIMITS = { default: 25, max: 100 } as const;

/** `hard`: a permanent failure (5.x.x, counted); `temporary`: 4.x.x or delayed (never counted). */
export const BOUNCE_KINDS = ['hard', 'temporary'] as const;

const Count = z.int().check(z.nonnegative());

export const BounceState = z.looseObject({
  /** The address (spec §2.2 `id`) and its contact (its ccid where ccid is enabled). */
  email: Id,
  address: z.string(),
  contact: Id,
  /** Hard failures counted, at most one a day; at the server's threshold the address is paused. */
  score: Count,
  /** ISO 8601 times; the last bounce of any kind, with its status (RFC 3463) and why. */
  last_bounce: z.string(),
  last_kind: z.string(),
  last_status: z.nullable(z.string()),
  last_reason: z.string(),
  /** When bounces paused the address (spec §2.2 `paused`); null while they have not. */
  paused_since: z.nullable(z.string()),
  /** Warnings mailed to the address since it was paused. */
  warnings_sent: Count,
  /** When it left the lists that bounced, its warnings unanswered; null: not removed. */
  removed: z.nullable(z.string()),
  /** The lists whose deliveries to it failed, latest first (those the caller sees). */
  lists: z.array(z.string()),
});
export type BounceState = z.infer<typeof BounceState>;

export const BounceQuery = z.strictObject({
  ...pageQuery(BOUNCE_PAGE_LIMITS.max),
  /** The members of this list only. */
  list: z.optional(ListName),
  /** The addresses of this contact only (its id, or its ccid where ccid is enabled). */
  contact: z.optional(Id),
});
export type BounceQuery = z.infer<typeof BounceQuery>;

/** The addresses that bounce, the paused first, then the latest bounce first. */
export const BouncePage = pageOf(BounceState);
export type BouncePage = z.infer<typeof BouncePage>;

/** A clear: whether there was anything to clear, and the address's `paused` after it. */
export const BounceClearOutcome = z.looseObject({
  email: Id,
  address: z.string(),
  cleared: z.boolean(),
  paused: z.boolean(),
});
export type BounceClearOutcome = z.infer<typeof BounceClearOutcome>;
