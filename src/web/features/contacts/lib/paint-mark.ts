import { useEffect } from 'react';
import { CONTACTS_PAINT_MARK } from '../../../lib/contact-queries.ts';

/** Marks the first frame after a page of rows is committed (bench/contacts-render.ts). */
export function usePaintMark(rows: readonly unknown[], enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    const frame = requestAnimationFrame(() =>
      performance.mark(CONTACTS_PAINT_MARK, { detail: { rows: rows.length } }),
    );
    return () => cancelAnimationFrame(frame);
  }, [rows, enabled]);
}
