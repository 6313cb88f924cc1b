import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { usePaintMark } from '../lib/paint-mark.ts';

/**
 * The rows of a long page, virtualized: only rows near the viewport of `scrollRef` are in the
 * DOM, spacer rows keep the scroll height (`scrollElement`: state, not a ref, so that these rows
 * render again once it is attached, which happens after their own effects). Its own chunk: the virtualizer (9 kB gzip) loads with
 * the first page longer than contacts-table.tsx renders in full (issue 17 item 9).
 */
export function VirtualRows<T>({
  rows,
  columns,
  rowHeight,
  scrollElement,
  renderRow,
}: {
  rows: readonly T[];
  columns: number;
  /** A row's estimated height in pixels, before it is measured. */
  rowHeight: number;
  scrollElement: HTMLDivElement | null;
  renderRow: (row: T, index: number, measure: (element: Element | null) => void) => ReactNode;
}) {
  usePaintMark(rows);
  // The table may have been scrolled while this chunk loaded (contacts-table.tsx shows the first
  // rows and the full height meanwhile): where it was when these rows replace them, read before
  // the virtualizer mounts (it scrolls to its own start), is where it goes on.
  const scrolledTo = useRef(0);
  useLayoutEffect(() => {
    scrolledTo.current = scrollElement?.scrollTop ?? 0;
    // Only where it was when these rows first showed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  useLayoutEffect(() => {
    if (scrolledTo.current > 0) virtualizer.scrollToOffset(scrolledTo.current);
  }, [virtualizer]);
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      {before > 0 && (
        <tr aria-hidden="true" className="spacer-row">
          <td colSpan={columns} style={{ height: before }} />
        </tr>
      )}
      {items.map((item) => {
        const row = rows[item.index];
        return row === undefined ? null : renderRow(row, item.index, virtualizer.measureElement);
      })}
      {after > 0 && (
        <tr aria-hidden="true" className="spacer-row">
          <td colSpan={columns} style={{ height: after }} />
        </tr>
      )}
    </>
  );
}
