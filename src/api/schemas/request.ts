import * as z from 'zod/mini';
import { SHORT_TEXT_MAX_LENGTH } from '../constants.ts';
import { Id, ListName, arrayOf, pageOf, pageQuery, text } from '../primitives.ts';

/**
 * Reference-server extension (operations.ts `requests.*`, issue 25): the requests to join and to
 * leave that wait for a list moderator, by the list's `subscriptions` / `unsubscriptions` policy
 * `open+confirm` (spec §2.4), with the permission `membership` (§2.6). The address has confirmed
 * each one already; a moderator approves (the membership changes), rejects (the requester is told,
 * with the moderator's reason) or discards (nobody is told).
 */
export const REQUEST_PAGE_LIMITS = { default: 25, max: 100 } as const;
export const REQUEST_BULK_MAX = 100;

export const REQUEST_KINDS = ['join', 'leave'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
export const REQUEST_ACTIONS = ['approve', 'reject', 'discard'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];
/** Where the request was made: the list's page, a mail command, a delivery's one-click link. */
export const REQUEST_SOURCES = ['web', 'mail', 'one-click'] as const;

export const MemberRequest = z.looseObject({
  id: Id,
  list: z.string(),
  kind: z.enum(REQUEST_KINDS),
  address: z.string(),
  source: z.string(),
  /** ISO 8601: when it was asked, when the address confirmed it, when it is dropped unanswered. */
  created: z.string(),
  confirmed: z.nullable(z.string()),
  expires: z.string(),
});
export type MemberRequest = z.infer<typeof MemberRequest>;

export const RequestQuery = z.strictObject({
  ...pageQuery(REQUEST_PAGE_LIMITS.max),
  list: z.optional(ListName),
  kind: z.optional(z.enum(REQUEST_KINDS)),
});
export type RequestQuery = z.infer<typeof RequestQuery>;

const Count = z.int().check(z.nonnegative());

/** A page of requests, and how many wait per list and kind among those the caller may see. */
export const RequestPage = z.extend(pageOf(MemberRequest), {
  lists: z.array(z.looseObject({ list: z.string(), join: Count, leave: Count })),
});
export type RequestPage = z.infer<typeof RequestPage>;

export const RequestReject = z.strictObject({
  reason: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
});
export type RequestReject = z.infer<typeof RequestReject>;

export const RequestOutcome = z.looseObject({
  id: Id,
  action: z.enum(REQUEST_ACTIONS),
  kind: z.enum(REQUEST_KINDS),
  address: z.string(),
});
export type RequestOutcome = z.infer<typeof RequestOutcome>;

/** One action on several requests, all or none. */
export const RequestBulk = z.strictObject({
  action: z.enum(REQUEST_ACTIONS),
  ids: arrayOf(Id, REQUEST_BULK_MAX).check(z.minLength(1, 'names at least one request')),
  reason: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
});
export type RequestBulk = z.infer<typeof RequestBulk>;

export const RequestBulkOutcome = z.looseObject({ results: z.array(RequestOutcome) });
export type RequestBulkOutcome = z.infer<typeof RequestBulkOutcome>;
