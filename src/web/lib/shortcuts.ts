/**
 * Keyboard shortcuts as key sequences (`g c`: go to contacts). The matcher is pure: the layout
 * feeds it keys and runs what it returns.
 */
export interface Shortcut<A> {
  keys: readonly string[];
  action: A;
}

export interface SequenceMatcher<A> {
  /** The action a key completes, or null (the key may have started or continued a sequence). */
  feed(key: string, time: number): A | null;
  reset(): void;
}

/** Keys of one sequence must follow within this time. */
export const SEQUENCE_TIMEOUT_MS = 1500;

export function createSequenceMatcher<A>(
  shortcuts: readonly Shortcut<A>[],
  timeoutMs = SEQUENCE_TIMEOUT_MS,
): SequenceMatcher<A> {
  let typed: string[] = [];
  let lastTime = -Infinity;

  const startsAny = (prefix: readonly string[]) =>
    shortcuts.some(
      (s) => s.keys.length > prefix.length && prefix.every((key, i) => s.keys[i] === key),
    );
  const exact = (sequence: readonly string[]) =>
    shortcuts.find(
      (s) => s.keys.length === sequence.length && sequence.every((key, i) => s.keys[i] === key),
    );

  return {
    feed(key, time) {
      if (time - lastTime > timeoutMs) typed = [];
      lastTime = time;
      // A key that breaks a sequence may start a new one (`g x g c` still goes to contacts).
      for (const candidate of [[...typed, key], [key]]) {
        const match = exact(candidate);
        if (match) {
          typed = [];
          return match.action;
        }
        if (startsAny(candidate)) {
          typed = candidate;
          return null;
        }
      }
      typed = [];
      return null;
    },
    reset() {
      typed = [];
    },
  };
}

/** Keys typed into a field, or with a modifier (browser and screen-reader commands), are not shortcuts. */
export function isShortcutEvent(
  event: Pick<KeyboardEvent, 'target' | 'ctrlKey' | 'metaKey' | 'altKey' | 'isComposing'>,
): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false;
  const target = event.target;
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return true;
  if (target.isContentEditable) return false;
  return !target.closest('input, textarea, select, [role="combobox"], [role="textbox"]');
}
