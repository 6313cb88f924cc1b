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

/** Where typed keys are text: these never fire a shortcut (a checkbox or a button types nothing). */
const TEXT_ENTRY =
  'input:not([type="checkbox"], [type="radio"], [type="button"], [type="submit"], [type="reset"]), textarea, select, [role="combobox"], [role="textbox"]';
/** Controls that Enter and Space activate themselves. */
const ACTIVATED = 'a[href], button, summary, input, [role="button"], [role="link"], [role="tab"]';

/**
 * Keys typed into a field, or with a modifier (browser and screen-reader commands), are not
 * shortcuts; nor is Enter or Space on a control, which activates the control.
 */
export function isShortcutEvent(
  event: Pick<KeyboardEvent, 'target' | 'ctrlKey' | 'metaKey' | 'altKey' | 'isComposing'> & {
    key?: string;
  },
): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false;
  const target = event.target;
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return true;
  if (target.isContentEditable) return false;
  if ((event.key === 'Enter' || event.key === ' ') && target.closest(ACTIVATED)) return false;
  return !target.closest(TEXT_ENTRY);
}
