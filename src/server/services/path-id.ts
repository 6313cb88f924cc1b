import type { Id } from '../../api/primitives.ts';

/**
 * A path's `:id` as a stored row's id, or null when it cannot name one (not digits, zero, past the
 * 32-bit ids both databases use): the route then answers 404, as for an id that names no row.
 */
export function pathId(value: Id): number | null {
  const text = String(value);
  if (!/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}
