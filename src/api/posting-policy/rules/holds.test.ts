import { describe, expect, it } from 'vitest';
import { decideCase } from '../../test-support/posting.ts';
import type { PostingAction } from '../types.ts';

type Headers = [string, string][];

describe('hold_replies (spec §2.4)', () => {
  const rows: [on: boolean, headers: Headers, subject: string, action: PostingAction][] = [
    [true, [['In-Reply-To', '<1@example.org>']], 'Meeting notes', 'hold'],
    [true, [['References', '<0@example.org> <1@example.org>']], 'Meeting notes', 'hold'],
    [true, [['In-Reply-To', '  ']], 'Meeting notes', 'accept'],
    // The headers say what a reply is; a subject's "Re:" alone does not.
    [true, [], 'Re: Meeting notes', 'accept'],
    [false, [['In-Reply-To', '<1@example.org>']], 'Meeting notes', 'accept'],
  ];
  it.each(rows)('hold_replies %s, headers %j, subject %s: %s', (on, headers, subject, action) => {
    const decision = decideCase({ settings: { hold_replies: on }, headers, message: { subject } });
    expect(decision.action).toBe(action);
    if (action === 'hold') {
      expect(decision).toMatchObject({ rule: 'reply', setting: 'hold_replies' });
      expect(decision.reason).toContain('hold_replies');
    }
  });
});

describe('hold_automated (spec §2.4, SECURITY.md 36)', () => {
  const rows: [on: boolean, headers: Headers, from: string, action: PostingAction][] = [
    [true, [['Auto-Submitted', 'auto-replied']], 'member@example.org', 'hold'],
    [true, [['Auto-Submitted', 'auto-generated; owner-email="x@y"']], 'member@example.org', 'hold'],
    [true, [['Auto-Submitted', 'no']], 'member@example.org', 'accept'],
    [true, [['Precedence', 'bulk']], 'member@example.org', 'hold'],
    [true, [['Precedence', 'junk']], 'member@example.org', 'hold'],
    [true, [['Precedence', 'list']], 'member@example.org', 'hold'],
    [true, [['Precedence', 'first-class']], 'member@example.org', 'accept'],
    [true, [['X-Autoreply', 'yes']], 'member@example.org', 'hold'],
    [true, [], 'MAILER-DAEMON@example.org', 'hold'],
    [true, [], 'member@example.org', 'accept'],
    [false, [['Auto-Submitted', 'auto-replied']], 'member@example.org', 'accept'],
  ];
  it.each(rows)('hold_automated %s, headers %j, from %s: %s', (on, headers, address, action) => {
    const decision = decideCase({
      settings: { hold_automated: on },
      headers,
      message: { from: { address } },
    });
    expect(decision.action).toBe(action);
    if (action === 'hold') {
      expect(decision).toMatchObject({ rule: 'automated', setting: 'hold_automated' });
      // The hold message is not sent to a program.
      expect(decision.senderNotice).toBeNull();
      expect(decision.noticeSuppressed).toContain('send_hold_message');
    }
  });
});

describe('maxlength (spec §2.4, KB; 0 is no limit): over it, refused (issue 28)', () => {
  const rows: [maxlength: number, size: number, action: PostingAction][] = [
    [0, 50 * 1024 * 1024, 'accept'],
    [40, 40 * 1024, 'accept'],
    [40, 40 * 1024 + 1, 'reject'],
    [1, 10 * 1024, 'reject'],
  ];
  it.each(rows)('maxlength %i KB, %i bytes: %s', (maxlength, size, action) => {
    const decision = decideCase({ settings: { maxlength }, message: { size } });
    expect(decision.action).toBe(action);
    if (action === 'reject') {
      expect(decision).toMatchObject({ rule: 'too-large', setting: 'maxlength' });
      expect(decision.reason).toContain(`maxlength of ${maxlength} KB`);
    }
  });
});

describe('administrivia (Mailman 3): requests sent to the list itself', () => {
  const rows: [subject: string, body: string, action: PostingAction, setting?: string][] = [
    ['unsubscribe', '', 'hold', 'unsubscriptions'],
    ['Re: Unsubscribe me', 'thanks', 'hold', 'unsubscriptions'],
    ['', 'subscribe ada@example.org\n', 'hold', 'subscriptions'],
    ['Hello', 'join\n', 'hold', 'subscriptions'],
    ['How do I unsubscribe from the other list?', 'Asking for a friend.', 'accept'],
    ['Minutes', 'subscribe\n1\n2\n3\n4\n5\n6\n', 'accept'],
  ];
  it.each(rows)('subject %j, body %j: %s', (subject, body, action, setting) => {
    const decision = decideCase({
      message: { subject, body },
      settings: { subscriptions: 'closed' },
      account: { unsubscriptions: 'open+confirm' },
    });
    expect(decision.action).toBe(action);
    if (setting) {
      expect(decision).toMatchObject({ rule: 'administrivia', setting });
      expect(decision.reason).toContain(
        setting === 'subscriptions'
          ? 'subscriptions closed says'
          : 'unsubscriptions open+confirm (the account’s default) says',
      );
    }
  });
});

describe('loop and sender (SECURITY.md 36)', () => {
  const rows: [headers: Headers, from: string, action: PostingAction, rule: string][] = [
    [[['List-Id', 'Team list <team.example.org>']], 'member@example.org', 'discard', 'loop'],
    [[['List-Id', '<TEAM.example.org>']], 'member@example.org', 'discard', 'loop'],
    [[['X-Loop', 'team@example.org']], 'member@example.org', 'discard', 'loop'],
    [[['X-BeenThere', 'Team@Example.org']], 'member@example.org', 'discard', 'loop'],
    // Another list's mail is not a loop of this one.
    [[['List-Id', '<other.example.org>']], 'member@example.org', 'accept', 'open'],
    [[], '', 'discard', 'no-sender'],
    [[], 'not an address', 'discard', 'no-sender'],
  ];
  it.each(rows)('headers %j, from %j: %s by %s', (headers, address, action, rule) => {
    const decision = decideCase({
      settings: { moderate: 1 },
      headers,
      message: { from: { address } },
    });
    if (action === 'accept') {
      // Everything is held on this list; what matters is that no loop was found.
      expect(decision.rule).toBe('hold-all');
      return;
    }
    expect(decision).toMatchObject({ action, rule, senderNotice: null, notifyModerator: false });
    expect(decision.hits).toHaveLength(1);
  });
});
