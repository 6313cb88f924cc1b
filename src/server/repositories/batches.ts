/**
 * Bound parameters per statement, well under both databases' ceilings (SQLite 32,766,
 * PostgreSQL 65,535): 8,192 addresses of 4 columns in one INSERT were a 500 (issue 16 finding 5).
 */
const MAX_PARAMETERS = 8_000;

/** Inserts rows in as many statements as their columns need, in order; answers every row returned. */
export async function insertInBatches<T extends object, R>(
  rows: readonly T[],
  insert: (batch: T[]) => Promise<R[]>,
): Promise<R[]> {
  const first = rows[0];
  if (first === undefined) return [];
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, Object.keys(first).length)));
  const inserted: R[] = [];
  for (let start = 0; start < rows.length; start += size) {
    inserted.push(...(await insert(rows.slice(start, start + size))));
  }
  return inserted;
}
