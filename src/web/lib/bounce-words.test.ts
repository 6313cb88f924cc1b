import { describe, expect, it } from 'vitest';
import type { BounceState } from '../../api/schemas/bounce.ts';
import { clearedWords, describeBounce, stateOf, toneOf } from './bounce-words.ts';

const base: BounceState = {
  email: 7,
  address: 'ann@example.com',
  contact: 3,
  score: 2,
  last_bounce: '2026-03-02T09:00:00Z',
  last_kind: 'hard',
  last_status: '5.1.1',
  last_reason: 'user unknown',
  paused_since: null,
  warnings_sent: 0,
  removed: null,
  lists: ['news'],
};

describe('bounce words (issue 26 item 1)', () => {
  it('names how far bounces went, the worst first', () => {
    expect(toneOf(base)).toBe('bouncing');
    expect(toneOf({ ...base, score: 0, last_kind: 'temporary' })).toBe('delayed');
    expect(toneOf({ ...base, paused_since: '2026-03-02T09:00:00Z' })).toBe('paused');
    expect(
      toneOf({ ...base, paused_since: '2026-03-02T09:00:00Z', removed: '2026-03-30T09:00:00Z' }),
    ).toBe('removed');
  });

  it('says the score, the last bounce with its kind, status and reason, and the warnings', () => {
    expect(describeBounce(base, 'en-GB', 'UTC')).toEqual({
      tone: 'bouncing',
      label: 'Bouncing',
      detail: 'Score 2; last bounce 2 Mar 2026, 09:00: permanent failure 5.1.1, user unknown',
    });
    const paused = describeBounce(
      { ...base, score: 5, paused_since: '2026-03-02T09:00:00Z', warnings_sent: 1 },
      'en-GB',
      'UTC',
    );
    expect(paused.label).toBe('Paused by bounces');
    expect(paused.detail).toBe(
      'Score 5; last bounce 2 Mar 2026, 09:00: permanent failure 5.1.1, user unknown; 1 warning sent',
    );
    expect(describeBounce({ ...base, warnings_sent: 2 }, 'en-GB', 'UTC').detail).toMatch(
      /; 2 warnings sent$/,
    );
  });

  it('leaves out a status or reason the bounce did not give, and names an unknown kind as sent', () => {
    const words = describeBounce(
      { ...base, score: 0, last_kind: 'temporary', last_status: null, last_reason: '  ' },
      'en-GB',
      'UTC',
    );
    expect(words.label).toBe('Delivery delayed');
    expect(words.detail).toBe('Score 0; last bounce 2 Mar 2026, 09:00: temporary failure');
    expect(describeBounce({ ...base, last_kind: 'smtp' }, 'en-GB', 'UTC').detail).toContain(
      ': smtp 5.1.1, user unknown',
    );
  });

  it('finds an address by its id, whether the server sends it as a number or a string', () => {
    expect(stateOf([base], '7')).toBe(base);
    expect(stateOf([{ ...base, email: '7' }], 7)?.address).toBe('ann@example.com');
    expect(stateOf([base], 8)).toBeUndefined();
  });

  it('says whether delivery resumes after a clear', () => {
    expect(clearedWords('ann@example.com', false)).toBe(
      'Bounces cleared for ann@example.com; its delivery resumes.',
    );
    expect(clearedWords('ann@example.com', true)).toContain('It stays paused');
  });
});
