import { describe, expect, it } from 'vitest';
import {
  modeOf,
  suggestedFix,
  moderationProblems,
  summarizeModeration,
  type ModerationSettings,
} from './moderation.ts';

const base: ModerationSettings = {
  moderate: 0,
  message_rejections: null,
  notify_approval: null,
  restrict_post_lists: ['staff'],
  restrict_post_allowed_emails: ['a@example.com', 'b@example.com'],
  restrict_post_banned_emails: [],
  send_hold_message: false,
  send_reject_message: false,
};

/** What every moderate value 0–15 must say about who may post, and which problems it has. */
const expected: Record<number, { who: RegExp; problems: RegExp[] }> = {
  0: { who: /^Anyone may post; messages go out without approval\.$/, problems: [] },
  1: { who: /every message is held for approval/, problems: [] },
  2: { who: /^Nobody is permitted/, problems: [/no kind of sender is chosen/] },
  3: { who: /every message is held/, problems: [/other flags change nothing/] },
  4: { who: /^Anyone may post/, problems: [/lists \(4\) count only when/] },
  5: { who: /every message is held/, problems: [/other flags/] },
  6: { who: /^Only members of the list staff may post\.$/, problems: [] },
  7: { who: /every message is held/, problems: [/other flags/] },
  8: { who: /^Anyone may post/, problems: [/addresses \(8\) count only when/] },
  9: { who: /every message is held/, problems: [/other flags/] },
  10: { who: /^Only the 2 allowed addresses may post\.$/, problems: [] },
  11: { who: /every message is held/, problems: [/other flags/] },
  12: { who: /^Anyone may post/, problems: [/lists \(4\) and the allowed addresses \(8\)/] },
  13: { who: /every message is held/, problems: [/other flags/] },
  14: {
    who: /^Only members of the list staff and the 2 allowed addresses may post\.$/,
    problems: [],
  },
  15: { who: /every message is held/, problems: [/other flags/] },
};

describe('summarizeModeration', () => {
  for (let moderate = 0; moderate <= 15; moderate++) {
    it(`describes moderate = ${moderate}`, () => {
      const settings = { ...base, moderate };
      const summary = summarizeModeration(settings);
      const want = expected[moderate];
      expect(want).toBeDefined();
      expect(summary.whoMayPost).toMatch(want!.who);
      const problems = moderationProblems(settings);
      expect(problems).toHaveLength(want!.problems.length);
      want!.problems.forEach((pattern, index) => expect(problems[index]).toMatch(pattern));
    });
  }

  it('maps the bits to the three modes', () => {
    expect([0, 1, 2, 4, 6, 8, 14, 15].map(modeOf)).toEqual([
      'none',
      'hold-all',
      'chosen-senders',
      'none',
      'chosen-senders',
      'none',
      'chosen-senders',
      'hold-all',
    ]);
  });

  it('says what happens to everyone else for each message_rejections value', () => {
    const outcome = (message_rejections: number | null) =>
      summarizeModeration({ ...base, moderate: 6, message_rejections }).everyoneElse;
    expect(outcome(null)).toMatch(/account’s default/);
    expect(outcome(0)).toMatch(/held for approval\.$/);
    expect(outcome(1)).toMatch(/contact in the account; otherwise they are rejected/);
    expect(outcome(2)).toMatch(/rejected\.$/);
    expect(outcome(3)).toMatch(/rejected\.$/);
    expect(summarizeModeration({ ...base, moderate: 6, message_rejections: 3 }).whoMayPost).toMatch(
      /held for approval too/,
    );
  });

  it('says who is told for each notify_approval value and the send flags', () => {
    const told = (patch: Partial<ModerationSettings>) =>
      summarizeModeration({ ...base, moderate: 10, message_rejections: 2, ...patch }).whoIsTold;
    expect(told({ notify_approval: null })).toMatch(/follows the account’s default/);
    expect(told({ notify_approval: 0 })).toMatch(/^Nobody is notified/);
    expect(told({ notify_approval: 1 })).toMatch(/list manager is notified whenever/);
    expect(told({ send_hold_message: true })).toMatch(/gets the hold message/);
    expect(told({ send_reject_message: true })).toMatch(/gets the rejection message/);
    expect(told({})).toMatch(/rejected message is not told/);
    // Nothing can be rejected when nobody is moderated: no word about rejections.
    expect(summarizeModeration({ ...base, moderate: 0 }).whoIsTold).not.toMatch(/rejected/);
  });

  it('flags chosen kinds of sender with nothing chosen', () => {
    const empty = { ...base, restrict_post_lists: [], restrict_post_allowed_emails: [] };
    expect(moderationProblems({ ...empty, moderate: 14 })).toEqual([
      'Members of the chosen lists may post (4), but no list is chosen.',
      'The allowed addresses may post (8), but the list of allowed addresses is empty.',
    ]);
    expect(summarizeModeration({ ...empty, moderate: 6 }).whoMayPost).toMatch(/none chosen yet/);
  });

  it('mentions banned addresses', () => {
    const summary = summarizeModeration({
      ...base,
      moderate: 0,
      restrict_post_banned_emails: ['x@example.com'],
    });
    expect(summary.everyoneElse).toMatch(/1 banned address is never allowed to post/);
  });
});

describe('suggestedFix', () => {
  it('repairs the pointless values and leaves the sound ones alone', () => {
    const fixes = Array.from(
      { length: 16 },
      (_, moderate) => suggestedFix(moderate)?.value ?? null,
    );
    expect(fixes).toEqual([
      null, // 0
      null, // 1
      null, // 2: needs a choice of senders, no obvious repair
      1, // 3
      6, // 4
      1, // 5
      null, // 6
      1, // 7
      10, // 8
      1, // 9
      null, // 10
      1, // 11
      14, // 12
      1, // 13
      null, // 14
      1, // 15
    ]);
  });
});
