import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * The keyboard triage cursor of a table (Messages, Held): `j`/`k` move it from row to row, the
 * focus following on the row's link (`[data-triage-link="<key>"]`), and after a row leaves (deleted,
 * approved…) it goes on with the next row, or the previous one at the end. The page registers its
 * keys with usePageShortcuts and acts on `currentItem`.
 *
 * @example
 * const cursor = useTriageCursor({ rows, keyOf: (m) => String(m.id), container: tableRef, paused: dialogOpen });
 * usePageShortcuts([{ keys: ['j'], description: 'Next message', run: () => cursor.move(1) }]);
 */
export function useTriageCursor<T>({
  rows,
  keyOf,
  container,
  paused = false,
}: {
  /** The rows in the order shown. */
  rows: readonly T[];
  keyOf: (row: T) => string;
  /** The element holding the rows' links. */
  container: RefObject<HTMLElement | null>;
  /**
   * A modal dialog is open: closing it gives the focus back to what opened it, so focusing a row
   * any earlier (even a frame later) is undone. A pending move waits until this is false.
   */
  paused?: boolean;
}) {
  const [current, setCurrent] = useState<string | null>(null);
  const currentItem = rows.find((row) => keyOf(row) === current) ?? null;
  const pending = useRef<T | null>(null);

  /** Puts the cursor on a row and the focus on its link. */
  const focusRow = (row: T) => {
    setCurrent(keyOf(row));
    container.current
      ?.querySelector<HTMLElement>(`[${TRIAGE_LINK}="${CSS.escape(keyOf(row))}"]`)
      ?.focus();
  };

  useEffect(() => {
    if (paused || !pending.current) return;
    focusRow(pending.current);
    pending.current = null;
  });

  return {
    /** The key of the row the cursor is on. */
    current,
    /** For the table: a row that gets the focus gets the cursor. */
    setCurrent,
    currentItem,
    focusRow,
    /** Moves the cursor by `step` rows; from nowhere, `j` starts at the top, `k` at the end. */
    move(step: number) {
      const index = rows.findIndex((row) => keyOf(row) === current);
      const target = index === -1 ? (step > 0 ? 0 : rows.length - 1) : index + step;
      const next = rows[Math.min(rows.length - 1, Math.max(0, target))];
      if (next) focusRow(next);
    },
    /** Where the cursor goes once these rows have left: the row after them, else the one before. */
    after(leaving: readonly T[]): T | null {
      const gone = new Set(leaving.map(keyOf));
      const index = rows.findIndex((row) => gone.has(keyOf(row)));
      if (index === -1) return null;
      const later = rows.slice(index).find((row) => !gone.has(keyOf(row)));
      const earlier = rows
        .slice(0, index)
        .reverse()
        .find((row) => !gone.has(keyOf(row)));
      return later ?? earlier ?? null;
    },
    /** Focuses `row` once nothing pauses the cursor (after a dialog closed, on the next render). */
    focusSoon(row: T | null) {
      pending.current = row;
    },
  };
}

/** The attribute naming a row's link for the cursor: `<a data-triage-link={key}>`. */
export const TRIAGE_LINK = 'data-triage-link';
