import { useState } from 'react';

/**
 * The rows a person selected (checkboxes, `x`), by key, kept across pages so that one bulk action
 * may span them.
 *
 * @example
 * const selection = useSelection((m: Message) => String(m.id));
 * selection.toggle([message], true);
 */
export function useSelection<T>(keyOf: (item: T) => string) {
  const [selected, setSelected] = useState<ReadonlyMap<string, T>>(new Map());
  return {
    selected,
    has: (item: T) => selected.has(keyOf(item)),
    /** Selects (`on`) or unselects each of `items`. */
    toggle: (items: readonly T[], on: boolean) =>
      setSelected((before) => {
        const next = new Map(before);
        for (const item of items) {
          if (on) next.set(keyOf(item), item);
          else next.delete(keyOf(item));
        }
        return next;
      }),
    clear: () => setSelected(new Map()),
  };
}
