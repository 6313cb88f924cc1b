import * as z from 'zod/mini';
import {
  ACCOUNT_NOTIFY_APPROVAL_VALUES,
  MESSAGE_REJECTIONS_VALUES,
  SUBSCRIPTION_MODES,
} from '../constants.ts';
import type { List } from '../schemas/list.ts';

/**
 * The inputs and the answer of the posting policy (spec §2.4): what a list's settings, the account's
 * defaults, who the sender is, and the message decide about a message sent to the list.
 */

/** The list settings the policy reads: the spec's own names and shapes (spec §2.4). */
export type PostingSettings = Pick<
  List,
  | 'moderate'
  | 'message_rejections'
  | 'notify_approval'
  | 'subscriptions'
  | 'unsubscriptions'
  | 'restrict_post_allowed_emails'
  | 'restrict_post_banned_emails'
  | 'restrict_post_lists'
  | 'taboo_headers'
  | 'taboo_body'
  | 'hold_automated'
  | 'hold_replies'
  | 'maxlength'
  | 'send_hold_message'
  | 'send_reject_message'
>;

/**
 * The account settings a list's null values defer to (spec §2.4 "null: use the account default",
 * §2.7). Any may be unknown (the dashboard cannot read the account with an account key): the
 * policy then assumes the reference server's default and says so in its reason. The spec's account
 * object has no `message_rejections`; a server that keeps one passes it here.
 */
export const PostingAccountDefaults = z.object({
  message_rejections: z.nullish(z.union(MESSAGE_REJECTIONS_VALUES.map((v) => z.literal(v)))),
  notify_approval: z.optional(z.union(ACCOUNT_NOTIFY_APPROVAL_VALUES.map((v) => z.literal(v)))),
  subscriptions: z.optional(z.enum(SUBSCRIPTION_MODES)),
  unsubscriptions: z.optional(z.enum(SUBSCRIPTION_MODES)),
});
export type PostingAccountDefaults = z.infer<typeof PostingAccountDefaults>;

/** One header field as it arrived, unfolded: `{ name: 'Subject', value: 'Hello' }`. */
export const HeaderField = z.object({ name: z.string(), value: z.string() });
export type HeaderField = z.infer<typeof HeaderField>;

/**
 * A message as the policy sees it. `headers` are every header field in order (duplicates kept);
 * the sender, subject and size are given apart because the pipeline has them parsed already
 * (envelope or From, decoded subject, bytes on the wire). Attachments and HTML decide nothing
 * here: `strip_attachments`, `truncate` and the rest change mail on its way out, not whether it goes.
 */
export const PostingMessage = z.object({
  /** The sender's address (From, else the envelope sender); '' for a bounce's null sender. */
  from: z.object({ address: z.string(), name: z.optional(z.string()) }),
  subject: z.string(),
  headers: z.array(HeaderField),
  /** The plain-text body (the pipeline's text version of an HTML-only message). */
  body: z.string(),
  /** The message's size in bytes, headers included, as received. */
  size: z.int().check(z.nonnegative()),
});
export type PostingMessage = z.infer<typeof PostingMessage>;

/**
 * What the receiving server verified of the message's author (issue 28 item 2; SECURITY.md 50):
 * `pass` when the message authenticates for its From domain (DMARC passes, or, where the domain
 * publishes no DMARC record, SPF or a DKIM signature passes for that domain or a parent of it);
 * `fail` otherwise, and always when the From header names no one author (`fromProblem`). The
 * dashboard's tester has no message to verify: `not-checked`, and the policy then takes the From
 * address as it is, saying so.
 */
export const PostingAuthentication = z.object({
  result: z.enum(['pass', 'fail', 'not-checked']),
  /** The verdict in words, for reasons: "DMARC passes for example.org". */
  detail: z.string(),
  /** Why the From header names no one author (none, several fields or addresses, malformed), if so. */
  fromProblem: z.optional(z.string()),
});
export type PostingAuthentication = z.infer<typeof PostingAuthentication>;

export const NOT_CHECKED: PostingAuthentication = {
  result: 'not-checked',
  detail: 'the sender’s authentication (SPF, DKIM, DMARC) is not checked here',
};

/**
 * Who is who, asked about one address at a time (addresses compared case-insensitively). The server
 * answers from its tables; the dashboard from one contact look-up or from what the user ticks.
 */
export interface PostingDirectory {
  /** Whether the address belongs to a member of the named list (this list or a restrict_post_lists one). */
  isMember(listName: string, address: string): boolean;
  /** Whether the address belongs to a contact of the account (message_rejections 1). */
  isContact(address: string): boolean;
}

/** The list the message is sent to: its name and posting address (`<name>@<the account's domain>`). */
export interface PostingList {
  name: string;
  address: string;
}

export interface PostingInput {
  list: PostingList;
  settings: PostingSettings;
  account: PostingAccountDefaults;
  directory: PostingDirectory;
  message: PostingMessage;
  /** What the receiving server verified of the author; absent: not checked (the dashboard's tester). */
  authentication?: PostingAuthentication;
}

export type PostingAction = 'accept' | 'hold' | 'reject' | 'discard';

/** The machine name of every rule, in the order the chain checks them. */
export const POSTING_RULES = [
  'loop',
  'no-sender',
  'from-header',
  'hold-all',
  'banned-sender',
  'not-permitted',
  'unauthenticated',
  'approval-required',
  'automated',
  'reply',
  'too-large',
  'taboo-header',
  'taboo-body',
  'taboo-unusable',
  'administrivia',
  'held-deleted',
  'open',
  'permitted',
] as const;
export type PostingRuleId = (typeof POSTING_RULES)[number];

/** One rule that matched: what it asks for, the setting behind it, and why, in a sentence. */
export interface RuleHit {
  rule: PostingRuleId;
  action: PostingAction;
  /** The setting that decided, as the API names it (`moderate`, `taboo_body[2]`, …); null for loop and sender checks, which no setting turns off. */
  setting: string | null;
  reason: string;
  /** For taboo rules: the pattern and the text it matched. */
  match?: { pattern: string; text: string };
}

export interface PostingDecision {
  action: PostingAction;
  /** The rule that decided; for a hold, the first of the holding rules. */
  rule: PostingRuleId;
  setting: string | null;
  reason: string;
  /** Every rule that matched, in the order checked (holds add up, as in Mailman 3's chain). */
  hits: RuleHit[];
  /** A held message: whether the list manager is told (notify_approval, list else account). */
  notifyModerator: boolean;
  /** Which message goes back to the sender (send_hold_message / send_reject_message), if any. */
  senderNotice: 'hold' | 'reject' | null;
  /** Why the sender is not told although the setting says so (an automated or looping message). */
  noticeSuppressed?: string;
}
