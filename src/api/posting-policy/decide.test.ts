import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_NOTIFY_APPROVAL_VALUES,
  LIST_NOTIFY_APPROVAL_VALUES,
  MESSAGE_REJECTIONS_VALUES,
  MODERATE,
} from '../constants.ts';
import { decideCase, type SenderKind } from '../test-support/posting.ts';
import type { PostingAccountDefaults, PostingAction, PostingRuleId } from './types.ts';

/**
 * The spec's tables (§2.4 `moderate`, `message_rejections`, list `notify_approval`; §2.7 account
 * `notify_approval`), one row of expectations per value and sender. The value constants are held
 * equal to the spec's tables by spec-coverage.test.ts; the last test of each block checks that
 * every value has a row here.
 */

/** Chosen senders: members of `staff` (4) and friend@example.org (8); the rest is rejected (2). */
const chosen = {
  restrict_post_lists: ['staff'],
  restrict_post_allowed_emails: ['friend@example.org'],
  message_rejections: 2 as const,
};

const moderateRows: [
  moderate: number,
  sender: SenderKind,
  action: PostingAction,
  rule: PostingRuleId,
][] = [
  [0, 'outsider', 'accept', 'open'],
  [0, 'member', 'accept', 'open'],
  [1, 'staffer', 'hold', 'hold-all'],
  [1, 'outsider', 'hold', 'hold-all'],
  [2, 'staffer', 'reject', 'not-permitted'],
  [2, 'friend', 'reject', 'not-permitted'],
  // 4 and 8 count only with 2 (the dashboard says so too): alone they restrict nothing.
  [4, 'outsider', 'accept', 'open'],
  [8, 'outsider', 'accept', 'open'],
  [2 + 4, 'staffer', 'accept', 'permitted'],
  [2 + 4, 'friend', 'reject', 'not-permitted'],
  [2 + 4, 'member', 'reject', 'not-permitted'],
  [2 + 8, 'friend', 'accept', 'permitted'],
  [2 + 8, 'staffer', 'reject', 'not-permitted'],
  [2 + 4 + 8, 'staffer', 'accept', 'permitted'],
  [2 + 4 + 8, 'friend', 'accept', 'permitted'],
  [2 + 4 + 8, 'outsider', 'reject', 'not-permitted'],
  // 1 holds everything; the other bits change nothing.
  [1 + 2 + 8, 'friend', 'hold', 'hold-all'],
  [1 + 2 + 8, 'outsider', 'hold', 'hold-all'],
];

describe('moderate (spec §2.4)', () => {
  it.each(moderateRows)('moderate %i, sender %s: %s by %s', (moderate, sender, action, rule) => {
    const decision = decideCase({ settings: { ...chosen, moderate }, sender });
    expect(decision).toMatchObject({ action, rule });
    expect(decision.reason).toMatch(/moderate|message_rejections/);
  });

  it('names the chosen list or the allowed address that permitted the sender', () => {
    expect(
      decideCase({ settings: { ...chosen, moderate: 6 }, sender: 'staffer' }).reason,
    ).toContain('member of staff');
    expect(
      decideCase({ settings: { ...chosen, moderate: 10 }, sender: 'friend' }).reason,
    ).toContain('restrict_post_allowed_emails');
  });

  it('says why nobody is permitted when 2 chooses no kind of sender', () => {
    expect(decideCase({ settings: { ...chosen, moderate: 2 }, sender: 'friend' }).reason).toContain(
      'chooses none',
    );
    const noLists = decideCase({
      settings: { ...chosen, moderate: 6, restrict_post_lists: [] },
      sender: 'staffer',
    });
    expect(noLists.reason).toContain('none is chosen');
  });

  it('has rows for every value of the spec table', () => {
    const tested = new Set(moderateRows.map(([moderate]) => moderate));
    for (const value of Object.values(MODERATE)) expect(tested).toContain(value);
  });
});

const rejectionRows: [
  rejections: 0 | 1 | 2 | 3 | null,
  account: PostingAccountDefaults,
  sender: SenderKind,
  action: PostingAction,
  rule: PostingRuleId,
][] = [
  [0, {}, 'outsider', 'hold', 'not-permitted'],
  [0, {}, 'friend', 'accept', 'permitted'],
  [1, {}, 'contact', 'hold', 'not-permitted'],
  [1, {}, 'outsider', 'reject', 'not-permitted'],
  [2, {}, 'contact', 'reject', 'not-permitted'],
  [2, {}, 'friend', 'accept', 'permitted'],
  [3, {}, 'outsider', 'reject', 'not-permitted'],
  [3, {}, 'friend', 'hold', 'approval-required'],
  [null, { message_rejections: 2 }, 'outsider', 'reject', 'not-permitted'],
  [null, { message_rejections: 1 }, 'contact', 'hold', 'not-permitted'],
  // Unknown account default: the reference server's (hold), said to be assumed.
  [null, {}, 'outsider', 'hold', 'not-permitted'],
];

describe('message_rejections (spec §2.4)', () => {
  it.each(rejectionRows)(
    'message_rejections %s (account %o), sender %s: %s by %s',
    (message_rejections, account, sender, action, rule) => {
      const decision = decideCase({
        settings: { ...chosen, moderate: 10, message_rejections },
        account,
        sender,
      });
      expect(decision).toMatchObject({ action, rule });
    },
  );

  it('says where a null took its value from', () => {
    const fromAccount = decideCase({
      settings: { ...chosen, moderate: 10, message_rejections: null },
      account: { message_rejections: 2 },
      sender: 'outsider',
    });
    expect(fromAccount.reason).toContain('message_rejections 2 (the account’s default)');
    const assumed = decideCase({
      settings: { ...chosen, moderate: 10, message_rejections: null },
      sender: 'outsider',
    });
    expect(assumed.reason).toContain('message_rejections 0 (the account’s default, assumed');
  });

  it('restricts nothing when nobody is restricted (moderate 0)', () => {
    for (const message_rejections of MESSAGE_REJECTIONS_VALUES) {
      expect(decideCase({ settings: { message_rejections }, sender: 'outsider' }).action).toBe(
        'accept',
      );
    }
  });

  it('has rows for every value of the spec table', () => {
    const tested = new Set(rejectionRows.map(([value]) => value));
    for (const value of [null, ...MESSAGE_REJECTIONS_VALUES]) expect(tested).toContain(value);
  });
});

/** A held message (everything held) from a member of `team`, or from an outsider. */
const notifyRows: [
  list: 0 | 1 | null,
  account: PostingAccountDefaults['notify_approval'],
  sender: SenderKind,
  action: PostingAction,
  notifyModerator: boolean,
][] = [
  [0, 1, 'member', 'hold', false],
  [1, 0, 'member', 'hold', true],
  [null, 0, 'member', 'hold', false],
  [null, 1, 'member', 'hold', true],
  [null, 2, 'member', 'discard', false],
  [null, 3, 'member', 'hold', false],
  [null, 3, 'outsider', 'discard', false],
  // The list's own value wins over the account's deleting ones.
  [1, 2, 'outsider', 'hold', true],
  [0, 3, 'outsider', 'hold', false],
  // Unknown: the reference server's default, tell the list manager.
  [null, undefined, 'outsider', 'hold', true],
];

describe('notify_approval (spec §2.4 list, §2.7 account)', () => {
  it.each(notifyRows)(
    'list %s, account %s, sender %s: %s, list manager told: %s',
    (notify_approval, accountValue, sender, action, notifyModerator) => {
      const account = accountValue === undefined ? {} : { notify_approval: accountValue };
      const decision = decideCase({ settings: { moderate: 1, notify_approval }, account, sender });
      expect(decision).toMatchObject({ action, notifyModerator });
      if (action === 'discard') {
        expect(decision.rule).toBe('held-deleted');
        expect(decision.reason).toMatch(
          /^Every message is held .* notify_approval \d \(the account’s default\) deletes/,
        );
        expect(decision.senderNotice).toBeNull();
        expect(decision.hits.map((hit) => hit.rule)).toEqual(['hold-all', 'held-deleted']);
      }
    },
  );

  it('has rows for every value of both spec tables', () => {
    const lists = new Set(notifyRows.map(([list]) => list));
    for (const value of [null, ...LIST_NOTIFY_APPROVAL_VALUES]) expect(lists).toContain(value);
    const accounts = new Set(notifyRows.map(([, account]) => account));
    for (const value of ACCOUNT_NOTIFY_APPROVAL_VALUES) expect(accounts).toContain(value);
  });
});

describe('restrict_post_* (spec §2.4)', () => {
  it('a banned sender is not permitted in any mode; message_rejections decides what follows', () => {
    const banned = { restrict_post_banned_emails: ['outsider@elsewhere.net'] };
    expect(
      decideCase({ settings: { ...banned, message_rejections: 2 }, sender: 'outsider' }),
    ).toMatchObject({
      action: 'reject',
      rule: 'banned-sender',
      setting: 'restrict_post_banned_emails',
    });
    expect(
      decideCase({ settings: { ...banned, message_rejections: 0 }, sender: 'outsider' }),
    ).toMatchObject({ action: 'hold', rule: 'banned-sender' });
    // Everything held, but a banned sender is still rejected when message_rejections says so.
    const heldAll = decideCase({
      settings: { ...banned, moderate: 1, message_rejections: 2 },
      sender: 'outsider',
    });
    expect(heldAll).toMatchObject({ action: 'reject', rule: 'banned-sender' });
    expect(heldAll.hits.map((hit) => hit.rule)).toEqual(['hold-all', 'banned-sender']);
  });

  it('banned wins over allowed', () => {
    const decision = decideCase({
      settings: {
        ...chosen,
        moderate: 10,
        restrict_post_banned_emails: ['friend@example.org'],
      },
      sender: 'friend',
    });
    expect(decision).toMatchObject({ action: 'reject', rule: 'banned-sender' });
  });

  it('compares addresses without case', () => {
    const decision = decideCase({
      settings: { ...chosen, moderate: 10, restrict_post_allowed_emails: ['Friend@Example.ORG'] },
      message: { from: { address: ' <FRIEND@example.org> ' } },
    });
    expect(decision).toMatchObject({ action: 'accept', rule: 'permitted' });
  });

  it('restrict_post_lists may name the list itself: members only', () => {
    const membersOnly = {
      moderate: 6,
      restrict_post_lists: ['team'],
      message_rejections: 2 as const,
    };
    expect(decideCase({ settings: membersOnly, sender: 'member' }).action).toBe('accept');
    expect(decideCase({ settings: membersOnly, sender: 'staffer' })).toMatchObject({
      action: 'reject',
      rule: 'not-permitted',
    });
  });

  it('a reject ends the chain: later holds (taboo) do not turn it into a hold', () => {
    const decision = decideCase({
      settings: { ...chosen, moderate: 10, taboo_body: ['notes'] },
      sender: 'outsider',
    });
    expect(decision).toMatchObject({ action: 'reject', rule: 'not-permitted' });
    expect(decision.hits).toHaveLength(1);
  });

  it('holds add up, the first one decides', () => {
    const decision = decideCase({
      settings: { moderate: 1, hold_replies: true, taboo_body: ['notes'] },
      headers: [['In-Reply-To', '<a@b>']],
    });
    expect(decision.rule).toBe('hold-all');
    expect(decision.hits.map((hit) => hit.rule)).toEqual(['hold-all', 'reply', 'taboo-body']);
  });
});

describe('what the sender is told', () => {
  it('send_hold_message and send_reject_message', () => {
    expect(decideCase({ settings: { moderate: 1 } }).senderNotice).toBe('hold');
    expect(
      decideCase({ settings: { moderate: 1, send_hold_message: false } }).senderNotice,
    ).toBeNull();
    const rejecting = { ...chosen, moderate: 10 };
    expect(decideCase({ settings: rejecting, sender: 'outsider' }).senderNotice).toBe('reject');
    expect(
      decideCase({ settings: { ...rejecting, send_reject_message: false }, sender: 'outsider' })
        .senderNotice,
    ).toBeNull();
    expect(decideCase({}).senderNotice).toBeNull();
  });

  it('a program is never answered, and the decision says why', () => {
    const decision = decideCase({
      settings: { ...chosen, moderate: 10 },
      sender: 'outsider',
      headers: [['Auto-Submitted', 'auto-replied']],
    });
    expect(decision).toMatchObject({ action: 'reject', senderNotice: null });
    expect(decision.noticeSuppressed).toContain('Auto-Submitted: auto-replied');
  });
});
