import { describe, expect, it } from 'vitest';
import { decideCase, LIST } from '../../test-support/posting.ts';
import type { PostingAuthentication, PostingSettings } from '../types.ts';

const PASS: PostingAuthentication = { result: 'pass', detail: 'DMARC passes for example.org' };
const FAIL: PostingAuthentication = {
  result: 'fail',
  detail: 'DMARC fails for example.org (SPF pass for evil.example)',
};

/** Chosen senders: friend@example.org (8) and the members of `staff` (4); others rejected. */
const chosen = {
  moderate: 2 + 4 + 8,
  restrict_post_lists: ['staff'],
  restrict_post_allowed_emails: ['friend@example.org'],
  message_rejections: 2 as const,
};

describe('an allowed sender counts only when the message authenticates for its domain (issue 28)', () => {
  it.each(['friend', 'staffer'] as const)('%s: posted when it passes', (sender) => {
    expect(decideCase({ settings: chosen, sender, authentication: PASS })).toMatchObject({
      action: 'accept',
      rule: 'permitted',
    });
  });

  it.each(['friend', 'staffer'] as const)(
    '%s: held as an unknown sender when it fails, whatever message_rejections says',
    (sender) => {
      const decision = decideCase({ settings: chosen, sender, authentication: FAIL });
      expect(decision).toMatchObject({
        action: 'hold',
        rule: 'unauthenticated',
        setting: 'moderate',
      });
      expect(decision.reason).toContain('counts as an unknown sender');
      expect(decision.reason).toContain(FAIL.detail);
    },
  );

  it('a sender nobody chose is what it was, verified or not', () => {
    for (const authentication of [PASS, FAIL])
      expect(decideCase({ settings: chosen, sender: 'outsider', authentication })).toMatchObject({
        action: 'reject',
        rule: 'not-permitted',
      });
  });

  it('not checked (the dashboard’s tester): posted, and the reason says a server checks it', () => {
    const decision = decideCase({ settings: chosen, sender: 'friend' });
    expect(decision).toMatchObject({ action: 'accept', rule: 'permitted' });
    expect(decision.reason).toContain('not checked here');
  });
});

describe('a From header that names no one author is held, on any list', () => {
  it('holds with the problem in the reason', () => {
    const decision = decideCase({
      authentication: { ...FAIL, fromProblem: 'appears 2 times' },
    });
    expect(decision).toMatchObject({ action: 'hold', rule: 'from-header', setting: null });
    expect(decision.reason).toContain('The From header appears 2 times');
  });
});

describe('mail claiming the list’s own address is the list’s own mail: dropped', () => {
  const rows: [what: string, from: string, headers: [string, string][]][] = [
    ['From the list', LIST.address, []],
    ['From the list, any case', 'TEAM@Example.org', []],
    ['From its bounce address', 'team-bounces@example.org', []],
    [
      'the list among other From addresses',
      'other@example.org',
      [['From', `a@b.example, <${LIST.address}>`]],
    ],
  ];
  it.each(rows)('%s', (_what, address, headers) => {
    const decision = decideCase({ message: { from: { address } }, headers, authentication: PASS });
    expect(decision).toMatchObject({ action: 'discard', rule: 'loop', senderNotice: null });
  });

  it('another list’s address is not this list’s loop', () => {
    expect(decideCase({ message: { from: { address: 'staff@example.org' } } }).rule).not.toBe(
      'loop',
    );
  });
});

describe('hold and reject notices go only to a sender the message authenticates (no backscatter)', () => {
  const rows: [settings: Partial<PostingSettings>, kind: 'hold' | 'reject'][] = [
    [{ moderate: 1 }, 'hold'],
    [{ ...chosen, restrict_post_allowed_emails: [] }, 'reject'],
  ];
  it.each(rows)('%j: %s notice', (settings, kind) => {
    const told = decideCase({ settings, sender: 'outsider', authentication: PASS });
    expect(told.senderNotice).toBe(kind);
    const forged = decideCase({ settings, sender: 'outsider', authentication: FAIL });
    expect(forged.senderNotice).toBeNull();
    expect(forged.noticeSuppressed).toContain('backscatter');
    // The tester, which checks nothing, shows the notice as the setting says.
    expect(decideCase({ settings, sender: 'outsider' }).senderNotice).toBe(kind);
  });
});
