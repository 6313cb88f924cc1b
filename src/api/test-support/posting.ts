import { decidePosting } from '../posting-policy/decide.ts';
import { setDirectory } from '../posting-policy/directory.ts';
import type {
  PostingAccountDefaults,
  PostingAuthentication,
  PostingDecision,
  PostingDirectory,
  PostingList,
  PostingMessage,
  PostingSettings,
} from '../posting-policy/types.ts';

/** The list under test, its posting address, and a neighbour list whose members may be chosen. */
export const LIST: PostingList = { name: 'team', address: 'team@example.org' };

/** Senders by what they are to the list `team`. */
export const SENDERS = {
  /** A member of `team` itself. */
  member: 'member@example.org',
  /** A member of `staff` (not of `team`). */
  staffer: 'staffer@example.org',
  /** In restrict_post_allowed_emails (with `friendlySettings`). */
  friend: 'friend@example.org',
  /** A contact of the account on no list. */
  contact: 'contact@example.org',
  /** Nobody the account knows. */
  outsider: 'outsider@elsewhere.net',
} as const;
export type SenderKind = keyof typeof SENDERS;

export const DIRECTORY: PostingDirectory = setDirectory({
  members: { team: [SENDERS.member], staff: [SENDERS.staffer] },
  contacts: [SENDERS.contact, SENDERS.friend],
});

/** A list with nothing restricted, nothing held and the sender told of holds and rejections. */
export function postingSettings(overrides: Partial<PostingSettings> = {}): PostingSettings {
  return {
    moderate: 0,
    message_rejections: null,
    notify_approval: null,
    subscriptions: null,
    unsubscriptions: null,
    restrict_post_allowed_emails: [],
    restrict_post_banned_emails: [],
    restrict_post_lists: [],
    taboo_headers: [],
    taboo_body: [],
    hold_automated: false,
    hold_replies: false,
    maxlength: 0,
    send_hold_message: true,
    send_reject_message: true,
    ...overrides,
  };
}

export function postingMessage(overrides: Partial<PostingMessage> = {}): PostingMessage {
  return {
    from: { address: SENDERS.member, name: 'Ada' },
    subject: 'Meeting notes',
    headers: [],
    body: 'Hello all,\nthe notes are attached.\n',
    size: 2_000,
    ...overrides,
  };
}

export interface Case {
  settings?: Partial<PostingSettings>;
  account?: PostingAccountDefaults;
  message?: Partial<PostingMessage>;
  sender?: SenderKind;
  headers?: [string, string][];
  /** What the receiving server verified; absent: not checked, as in the dashboard's tester. */
  authentication?: PostingAuthentication;
}

/** The decision for a case: the base list, message and directory with the case's changes. */
export function decideCase(c: Case): PostingDecision {
  const headers = c.headers?.map(([name, value]) => ({ name, value }));
  return decidePosting({
    list: LIST,
    settings: postingSettings(c.settings),
    account: c.account ?? {},
    directory: DIRECTORY,
    message: postingMessage({
      ...(c.sender ? { from: { address: SENDERS[c.sender] } } : {}),
      ...(headers ? { headers } : {}),
      ...c.message,
    }),
    ...(c.authentication ? { authentication: c.authentication } : {}),
  });
}
