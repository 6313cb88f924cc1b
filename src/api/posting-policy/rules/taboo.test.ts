import { RE2JS } from 're2js';
import { describe, expect, it, vi } from 'vitest';
import { decideCase } from '../../test-support/posting.ts';
import type { PostingAction } from '../types.ts';

describe('taboo rules (spec §2.4: a match forces the message to be held)', () => {
  const rows: [
    rules: { taboo_headers?: string[]; taboo_body?: string[] },
    message: { subject?: string; body?: string },
    action: PostingAction,
    setting?: string,
    matched?: string,
  ][] = [
    [
      { taboo_headers: ['^Subject:.*viagra'] },
      { subject: 'cheap viagra' },
      'hold',
      'taboo_headers[0]',
      'Subject: cheap viagra',
    ],
    // Case-sensitive as written; (?i) makes a rule insensitive.
    [{ taboo_headers: ['viagra'] }, { subject: 'VIAGRA' }, 'accept'],
    [
      { taboo_headers: ['(?i)viagra'] },
      { subject: 'VIAGRA' },
      'hold',
      'taboo_headers[0]',
      'VIAGRA',
    ],
    // The sender's From line is a header too, built from the parsed sender when absent.
    [{ taboo_headers: ['^From: Ada <'] }, {}, 'hold', 'taboo_headers[0]', 'From: Ada <'],
    [{ taboo_headers: ['zzz', 'notes'] }, {}, 'hold', 'taboo_headers[1]', 'notes'],
    [{ taboo_body: ['^the notes'] }, {}, 'hold', 'taboo_body[0]', 'the notes'],
    [{ taboo_body: ['^notes'] }, {}, 'accept'],
    [{ taboo_body: ['attached\\.$'] }, {}, 'hold', 'taboo_body[0]', 'attached.'],
    // Header rules see headers only, body rules the body only.
    [{ taboo_body: ['Meeting'] }, {}, 'accept'],
    [{ taboo_headers: ['Hello all'] }, {}, 'accept'],
  ];
  it.each(rows)('%j on %j: %s by %s', (rules, message, action, setting, matched) => {
    const decision = decideCase({ settings: rules, message });
    expect(decision.action).toBe(action);
    if (action !== 'hold') return;
    expect(decision.setting).toBe(setting);
    expect(decision.rule).toBe(
      setting?.startsWith('taboo_headers') ? 'taboo-header' : 'taboo-body',
    );
    expect(decision.hits[0]?.match?.text).toBe(matched);
    expect(decision.reason).toContain(setting?.replace(/\[\d+\]$/, ''));
  });

  it('every header field is seen, unfolded, one at a time', () => {
    const decision = decideCase({
      settings: { taboo_headers: ['^X-Spam-Flag: YES$'] },
      headers: [
        ['Subject', 'Meeting notes'],
        ['X-Spam-Flag', 'YES'],
      ],
    });
    expect(decision).toMatchObject({ action: 'hold', setting: 'taboo_headers[0]' });
  });

  it('a rule re2js cannot run holds every message, naming the rule (fails closed)', () => {
    const decision = decideCase({ settings: { taboo_body: ['fine', '(?=lookahead)'] } });
    expect(decision).toMatchObject({
      action: 'hold',
      rule: 'taboo-unusable',
      setting: 'taboo_body[1]',
    });
    expect(decision.reason).toContain('cannot be run');
  });

  // SECURITY.md 31. No clock (CI is loaded): the body goes through RE2, whose matching is linear by
  // construction; RegExp would take some 2^20000 steps on it and this test would never end.
  it('runs in linear time: a pattern that backtracks catastrophically elsewhere runs in RE2', () => {
    const body = `${'a'.repeat(20_000)}b`;
    const matched = vi.spyOn(RE2JS.prototype, 'matcher');
    try {
      const decision = decideCase({ settings: { taboo_body: ['^(a+)+$'] }, message: { body } });
      expect(decision.action).toBe('accept');
      expect(matched.mock.calls.some(([text]) => typeof text === 'string' && text.includes(body))).toBe(true);
    } finally {
      matched.mockRestore();
    }
  });
});
