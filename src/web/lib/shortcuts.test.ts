import { describe, expect, it } from 'vitest';
import { createSequenceMatcher, isShortcutEvent } from './shortcuts.ts';

const shortcuts = [
  { keys: ['g', 'c'], action: 'contacts' },
  { keys: ['g', 'l'], action: 'lists' },
  { keys: ['s'], action: 'switch' },
  { keys: ['?'], action: 'help' },
];

describe('createSequenceMatcher', () => {
  it('matches two-key sequences and single keys', () => {
    const matcher = createSequenceMatcher(shortcuts);
    expect(matcher.feed('g', 0)).toBeNull();
    expect(matcher.feed('c', 100)).toBe('contacts');
    expect(matcher.feed('s', 200)).toBe('switch');
    expect(matcher.feed('?', 300)).toBe('help');
  });

  it('forgets a started sequence after the timeout', () => {
    const matcher = createSequenceMatcher(shortcuts, 1000);
    expect(matcher.feed('g', 0)).toBeNull();
    expect(matcher.feed('l', 1001)).toBeNull();
    expect(matcher.feed('g', 2000)).toBeNull();
    expect(matcher.feed('l', 2999)).toBe('lists');
  });

  it('lets a wrong key start a new sequence', () => {
    const matcher = createSequenceMatcher(shortcuts);
    expect(matcher.feed('g', 0)).toBeNull();
    expect(matcher.feed('x', 10)).toBeNull();
    expect(matcher.feed('g', 20)).toBeNull();
    expect(matcher.feed('g', 30)).toBeNull();
    expect(matcher.feed('c', 40)).toBe('contacts');
  });

  it('does not fire a second key alone, and resets', () => {
    const matcher = createSequenceMatcher(shortcuts);
    expect(matcher.feed('c', 0)).toBeNull();
    matcher.feed('g', 10);
    matcher.reset();
    expect(matcher.feed('c', 20)).toBeNull();
  });
});

describe('isShortcutEvent', () => {
  const plain = { target: null, ctrlKey: false, metaKey: false, altKey: false, isComposing: false };
  it('ignores keys with a modifier or during composition', () => {
    expect(isShortcutEvent(plain)).toBe(true);
    expect(isShortcutEvent({ ...plain, ctrlKey: true })).toBe(false);
    expect(isShortcutEvent({ ...plain, metaKey: true })).toBe(false);
    expect(isShortcutEvent({ ...plain, altKey: true })).toBe(false);
    expect(isShortcutEvent({ ...plain, isComposing: true })).toBe(false);
  });
});
