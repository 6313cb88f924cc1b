import { useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * A shortcut of the page in view (`j`: the next message). The app shell adds the page's shortcuts
 * to its own: one matcher reads the keys, and the help dialog (`?`) lists them while the page is
 * shown. Single keys only; they must not start one of the shell's sequences (`g …`, `s`, `?`).
 */
export interface PageShortcut {
  keys: readonly string[];
  description: string;
  run: () => void;
}

let current: readonly PageShortcut[] = [];
const listeners = new Set<() => void>();

function publish(shortcuts: readonly PageShortcut[]) {
  current = shortcuts;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Registers the page's shortcuts while the calling component is mounted. The `run` functions may
 * change on every render: the latest ones run.
 *
 * @example
 * usePageShortcuts([{ keys: ['j'], description: 'Next message', run: () => move(1) }]);
 */
export function usePageShortcuts(shortcuts: readonly PageShortcut[]): void {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  // Registered again only when the keys or their descriptions change.
  const signature = shortcuts.map((s) => `${s.keys.join(' ')}\t${s.description}`).join('\n');
  useEffect(() => {
    const registered = latest.current.map((shortcut, index) => ({
      keys: shortcut.keys,
      description: shortcut.description,
      run: () => latest.current[index]?.run(),
    }));
    publish(registered);
    return () => {
      if (current === registered) publish([]);
    };
  }, [signature]);
}

/** The shortcuts the page in view registered (the app shell reads them). */
export function usePageShortcutList(): readonly PageShortcut[] {
  return useSyncExternalStore(subscribe, () => current);
}
