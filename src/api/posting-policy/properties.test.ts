import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MODERATE } from '../constants.ts';
import { LIST, postingMessage, postingSettings } from '../test-support/posting.ts';
import { decidePosting } from './decide.ts';
import { setDirectory } from './directory.ts';
import { automatedMarker, loopMarker, normalizeAddress } from './message.ts';
import type { PostingInput, PostingSettings } from './types.ts';

/** A small world, so that generated senders, lists and rules meet often. */
const ADDRESSES = ['ada@example.org', 'bob@example.org', 'cy@elsewhere.net', 'dee@example.org'];
const LISTS = ['team', 'staff', 'other'];
const PATTERNS = ['notes', '^Subject: .*free', '(?i)WIN', 'attached\\.$', 'zzz'];

const subset = <T>(values: readonly T[]) => fc.subarray([...values]);

const settingsArb: fc.Arbitrary<PostingSettings> = fc
  .record({
    moderate: fc.integer({ min: 0, max: 15 }),
    message_rejections: fc.constantFrom(null, 0, 1, 2, 3),
    notify_approval: fc.constantFrom(null, 0, 1),
    subscriptions: fc.constantFrom(null, 'open', 'open+confirm', 'closed'),
    unsubscriptions: fc.constantFrom(null, 'open', 'open+confirm', 'closed'),
    restrict_post_allowed_emails: subset(ADDRESSES),
    restrict_post_banned_emails: fc.oneof(fc.constant([]), subset(ADDRESSES)),
    restrict_post_lists: subset(LISTS),
    taboo_headers: fc.oneof(fc.constant([]), subset(PATTERNS)),
    taboo_body: fc.oneof(fc.constant([]), subset(PATTERNS)),
    hold_automated: fc.boolean(),
    hold_replies: fc.boolean(),
    maxlength: fc.constantFrom(0, 1, 40, 100),
    send_hold_message: fc.boolean(),
    send_reject_message: fc.boolean(),
  })
  .map((overrides) => postingSettings(overrides as Partial<PostingSettings>));

const HEADER_POOL: [string, string][] = [
  ['In-Reply-To', '<1@example.org>'],
  ['References', '<0@example.org>'],
  ['Auto-Submitted', 'auto-replied'],
  ['Auto-Submitted', 'no'],
  ['Precedence', 'bulk'],
  ['List-Id', 'Team <team.example.org>'],
  ['List-Id', '<other.example.org>'],
  ['X-Loop', 'team@example.org'],
  ['X-Spam', 'win free'],
];

const inputArb: fc.Arbitrary<PostingInput> = fc
  .record({
    settings: settingsArb,
    account: fc.record(
      {
        message_rejections: fc.constantFrom(null, 0, 1, 2, 3),
        notify_approval: fc.constantFrom(0, 1, 2, 3),
        subscriptions: fc.constantFrom('open', 'open+confirm', 'closed'),
      },
      { requiredKeys: [] },
    ),
    members: fc.record({
      team: subset(ADDRESSES),
      staff: subset(ADDRESSES),
      other: subset(ADDRESSES),
    }),
    contacts: subset(ADDRESSES),
    sender: fc.oneof(fc.constantFrom(...ADDRESSES), fc.emailAddress()),
    headers: subset(HEADER_POOL),
    subject: fc.constantFrom('Meeting notes', 'Win free things', 'unsubscribe', 'Re: plans', ''),
    body: fc.constantFrom('Hello,\nthe notes are attached.\n', 'subscribe\n', 'nothing here', ''),
    size: fc.integer({ min: 0, max: 200_000 }),
  })
  .map(({ settings, account, members, contacts, sender, headers, subject, body, size }) => ({
    list: LIST,
    settings,
    account,
    directory: setDirectory({ members, contacts }),
    message: postingMessage({
      from: { address: sender },
      headers: headers.map(([name, value]) => ({ name, value })),
      subject,
      body,
      size,
    }),
  }));

const decide = decidePosting;
const withModerate = (input: PostingInput, moderate: number): PostingInput => ({
  ...input,
  settings: { ...input.settings, moderate },
});

describe('posting policy properties', () => {
  it('is deterministic: the same input (or a copy of it) gives the same decision', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const copy = {
          ...structuredClone({ ...input, directory: null }),
          directory: input.directory,
        };
        expect(decide(copy)).toEqual(decide(input));
      }),
    );
  });

  it('a non-member never gets a message accepted by a list that only its members may post to', () => {
    fc.assert(
      fc.property(inputArb, fc.boolean(), (input, holdAll) => {
        const sender = input.message.from.address;
        fc.pre(!input.directory.isMember('team', sender));
        const membersOnly: PostingInput = {
          ...input,
          settings: {
            ...input.settings,
            moderate:
              MODERATE.specificSenders | MODERATE.listMembers | (holdAll ? MODERATE.holdAll : 0),
            restrict_post_lists: ['team'],
          },
        };
        expect(decide(membersOnly).action).not.toBe('accept');
      }),
    );
  });

  it('with chosen senders (2), an accepted sender is a chosen one', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { moderate, restrict_post_lists, restrict_post_allowed_emails } = input.settings;
        fc.pre((moderate & MODERATE.specificSenders) !== 0);
        if (decide(input).action !== 'accept') return;
        const sender = normalizeAddress(input.message.from.address);
        const viaList =
          (moderate & MODERATE.listMembers) !== 0 &&
          restrict_post_lists.some((list) => input.directory.isMember(list, sender));
        const viaAddress =
          (moderate & MODERATE.allowedEmails) !== 0 &&
          restrict_post_allowed_emails.map(normalizeAddress).includes(sender);
        expect(viaList || viaAddress).toBe(true);
      }),
    );
  });

  it('moderate 1 never accepts, and a banned sender is never accepted', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const decision = decide(input);
        if ((input.settings.moderate & MODERATE.holdAll) !== 0)
          expect(decision.action).not.toBe('accept');
        const banned = input.settings.restrict_post_banned_emails.map(normalizeAddress);
        if (banned.includes(normalizeAddress(input.message.from.address))) {
          expect(decision.action).not.toBe('accept');
        }
      }),
    );
  });

  // "Adding a bit never turns a hold into an accept" holds for the restricting bits 1 and 2 only:
  // 4 and 8 widen who may post (spec: "may send"), so they may turn a hold or reject into accept.
  it('adding 1 or 2 to moderate never turns a held, rejected or dropped message into an accepted one', () => {
    fc.assert(
      fc.property(
        inputArb,
        fc.constantFrom(MODERATE.holdAll, MODERATE.specificSenders),
        (input, bit) => {
          if (decide(input).action === 'accept') return;
          expect(decide(withModerate(input, input.settings.moderate | bit)).action).not.toBe(
            'accept',
          );
        },
      ),
    );
  });

  it('adding 4 or 8 to moderate never stops a message that was accepted', () => {
    fc.assert(
      fc.property(
        inputArb,
        fc.constantFrom(MODERATE.listMembers, MODERATE.allowedEmails),
        (input, bit) => {
          if (decide(input).action !== 'accept') return;
          expect(decide(withModerate(input, input.settings.moderate | bit)).action).toBe('accept');
        },
      ),
    );
  });

  it('the list’s own mail coming back is always dropped, and nobody is told', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        fc.pre(loopMarker(input.message, input.list) !== null);
        expect(decide(input)).toMatchObject({
          action: 'discard',
          rule: 'loop',
          senderNotice: null,
          notifyModerator: false,
        });
      }),
    );
  });

  it('a program is never answered; only held or rejected senders are; only holds notify', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const decision = decide(input);
        if (automatedMarker(input.message) !== null) expect(decision.senderNotice).toBeNull();
        if (decision.senderNotice !== null) expect(decision.senderNotice).toBe(decision.action);
        if (decision.notifyModerator) expect(decision.action).toBe('hold');
      }),
    );
  });

  it('the decision names its rule and setting, and the reason names the setting', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const decision = decide(input);
        expect(decision.reason.length).toBeGreaterThan(20);
        if (decision.setting !== null) {
          const setting = decision.setting.replace(/\[\d+\]$/, '');
          expect(Object.keys(input.settings)).toContain(setting);
          expect(decision.reason).toContain(setting);
        }
        if (decision.action === 'hold') {
          expect(decision.hits.find((hit) => hit.action === 'hold')?.rule).toBe(decision.rule);
        }
        if (decision.action === 'reject' || decision.action === 'discard') {
          expect(decision.hits.at(-1)?.rule).toBe(decision.rule);
        }
      }),
    );
  });

  it('the case of the sender’s address changes nothing (but what header rules see)', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const input = { ...generated, settings: { ...generated.settings, taboo_headers: [] } };
        const shouting: PostingInput = {
          ...input,
          message: {
            ...input.message,
            from: { address: input.message.from.address.toUpperCase() },
          },
        };
        const { reason: _a, hits: _b, ...decision } = decide(input);
        const { reason: _c, hits: _d, ...shouted } = decide(shouting);
        expect(shouted).toEqual(decision);
      }),
    );
  });
});
