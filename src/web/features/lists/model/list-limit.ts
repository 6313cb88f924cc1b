import type { Powers } from '../../../lib/powers.ts';

/**
 * The names of lists a list-limited principal may still create: those of its limit that the
 * account does not have yet (a list of another name would be outside it, spec §2.6). Null: any.
 */
export function creatableListNames(
  powers: Powers,
  existing: readonly { name: string }[],
): string[] | null {
  if (!powers.known || powers.limitLists === null) return null;
  return powers.limitLists.filter((name) => !existing.some((list) => list.name === name));
}
