import { describe, expect, it } from 'vitest';
import { senderRuleChange } from './sender-rule.ts';

const list = {
  moderate: 2,
  restrict_post_allowed_emails: ['old@example.org'],
  restrict_post_banned_emails: ['Ann@Example.org'],
};

describe('senderRuleChange (spec §2.4 sender settings)', () => {
  it('accepts: allowed, no longer banned, and 8 beside 2 so the allowed addresses count', () => {
    const change = senderRuleChange(list, 'ann@example.org', 'accept');
    expect(change.body).toEqual({
      restrict_post_allowed_emails: ['old@example.org', 'ann@example.org'],
      restrict_post_banned_emails: [],
      moderate: 10,
    });
    expect(change.changes.map((c) => c.setting)).toEqual([
      'restrict_post_allowed_emails',
      'restrict_post_banned_emails',
      'moderate',
    ]);
    expect(change.caveat).toBeNull();
  });

  it('rejects: banned (once, whatever the case), no longer allowed; sends only what changes', () => {
    const change = senderRuleChange(list, 'old@example.org', 'reject');
    expect(change.body).toEqual({
      restrict_post_allowed_emails: [],
      restrict_post_banned_emails: ['Ann@Example.org', 'old@example.org'],
    });
    expect(senderRuleChange(list, 'ANN@example.org', 'reject').body).toEqual({});
  });

  it('holds: neither allowed nor banned; says what the list’s moderate cannot do', () => {
    expect(senderRuleChange(list, 'old@example.org', 'hold').body).toEqual({
      restrict_post_allowed_emails: [],
    });
    expect(senderRuleChange({ ...list, moderate: 1 }, 'x@example.org', 'accept').caveat).toMatch(
      /holds every message/,
    );
    expect(senderRuleChange({ ...list, moderate: 0 }, 'x@example.org', 'hold').caveat).toMatch(
      /does not choose its senders/,
    );
  });
});
