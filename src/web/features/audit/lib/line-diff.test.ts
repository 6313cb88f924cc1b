import { describe, expect, it } from 'vitest';
import { arrayDiff, lineDiff } from './line-diff.ts';

describe('the diff of a changed text', () => {
  it('keeps the shared lines and marks the ones removed and added, in order', () => {
    expect(
      lineDiff('Hello\nMeetings on Monday\nBye', 'Hello\nMeetings on Tuesday\nSee you\nBye'),
    ).toEqual([
      { kind: 'same', text: 'Hello' },
      { kind: 'removed', text: 'Meetings on Monday' },
      { kind: 'added', text: 'Meetings on Tuesday' },
      { kind: 'added', text: 'See you' },
      { kind: 'same', text: 'Bye' },
    ]);
    expect(lineDiff('', 'New footer\nLine two')).toEqual([
      { kind: 'added', text: 'New footer' },
      { kind: 'added', text: 'Line two' },
    ]);
    expect(lineDiff('Gone', '')).toEqual([{ kind: 'removed', text: 'Gone' }]);
  });

  it('gives up on texts too long to compare line by line', () => {
    expect(lineDiff('x\n'.repeat(500), 'y')).toBeNull();
  });

  it('says what an array gained and lost', () => {
    expect(arrayDiff(['viagra', 'casino'], ['casino', 'lottery'])).toEqual({
      added: ['lottery'],
      removed: ['viagra'],
    });
  });
});
