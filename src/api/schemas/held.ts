import * as z from 'zod/mini';
import { SHORT_TEXT_MAX_LENGTH } from '../constants.ts';
import { Id, ListName, arrayOf, pageOf, pageQuery, text } from '../primitives.ts';

/**
 * Reference-server extension (operations.ts `held.*`): the messages the posting policy held for a
 * moderator (spec §2.4 `moderate`, taboo rules, `hold_*`, `maxlength`), with the permission
 * `approval` (spec §2.6). A moderator approves (the message is archived and sent out), rejects (the
 * sender gets the list's reject message, with the moderator's reason) or discards (nothing is sent).
 */

/** The most held messages one page answers, and one bulk request acts on. */
export const HELD_PAGE_LIMITS = { default: 25, max: 100 } as const;
export const HELD_BULK_MAX = 100;

export const HELD_ACTIONS = ['approve', 'reject', 'discard'] as const;
export type HeldAction = (typeof HELD_ACTIONS)[number];

/** One rule of the posting policy that held the message: its machine name, the setting, why. */
export const HeldReason = z.looseObject({
  rule: z.string(),
  setting: z.nullable(z.string()),
  reason: z.string(),
});
export type HeldReason = z.infer<typeof HeldReason>;

/** A held message as the queue lists it (no body). `received` is Unix seconds, as spec §2.5 `time`. */
export const HeldMessage = z.looseObject({
  id: Id,
  list: z.string(),
  subject: z.string(),
  from_phrase: z.string(),
  from_address: z.string(),
  received: z.int(),
  /** Bytes as received, headers included. */
  size: z.int().check(z.nonnegative()),
  message_id: z.string(),
  /** The rule that decided (the first holding rule) and its sentence. */
  rule: z.string(),
  setting: z.nullable(z.string()),
  reason: z.string(),
  /** Every holding rule that matched, in the order the policy checks them. */
  reasons: z.array(HeldReason),
});
export type HeldMessage = z.infer<typeof HeldMessage>;

/**
 * One held message with its content, in the shape of an archived message's (spec §2.5
 * `content_plain`, `content_html`): the dashboard shows it in the same sanitizing frame
 * (SECURITY.md 40). `headers` are the received header fields, unfolded, in order.
 */
export const HeldMessageDetail = z.extend(HeldMessage, {
  content_plain: z.string(),
  content_html: z.string(),
  headers: z.array(z.looseObject({ name: z.string(), value: z.string() })),
});
export type HeldMessageDetail = z.infer<typeof HeldMessageDetail>;

/** A held message's source as it arrived (read as UTF-8), shown on demand (issue 27 item 3). */
export const HeldSource = z.looseObject({
  id: Id,
  source: z.string(),
});
export type HeldSource = z.infer<typeof HeldSource>;

export const HeldQuery = z.strictObject({
  ...pageQuery(HELD_PAGE_LIMITS.max),
  /** Only this list's held messages. */
  list: z.optional(ListName),
});
export type HeldQuery = z.infer<typeof HeldQuery>;

/** A page of held messages, and how many each list the caller may see holds (whatever `list`). */
export const HeldPage = z.extend(pageOf(HeldMessage), {
  lists: z.array(z.looseObject({ list: z.string(), count: z.int().check(z.nonnegative()) })),
});
export type HeldPage = z.infer<typeof HeldPage>;

/** Reject: an optional reason, added to the list's reject message the sender gets. */
export const HeldReject = z.strictObject({
  reason: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
});
export type HeldReject = z.infer<typeof HeldReject>;

/** What became of one held message: approved ones name the archived message (spec §2.5 id). */
export const HeldOutcome = z.looseObject({
  id: Id,
  action: z.enum(HELD_ACTIONS),
  message: z.nullable(Id),
});
export type HeldOutcome = z.infer<typeof HeldOutcome>;

/**
 * One action on several held messages, all or none: an id that names no held message the caller
 * may see refuses the whole request.
 */
export const HeldBulk = z.strictObject({
  action: z.enum(HELD_ACTIONS),
  ids: arrayOf(Id, HELD_BULK_MAX).check(z.minLength(1, 'names at least one held message')),
  reason: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
});
export type HeldBulk = z.infer<typeof HeldBulk>;

export const HeldBulkOutcome = z.looseObject({ results: z.array(HeldOutcome) });
export type HeldBulkOutcome = z.infer<typeof HeldBulkOutcome>;
