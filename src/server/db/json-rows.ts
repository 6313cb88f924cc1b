import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './dialect.ts';

/** JSON text on SQLite, parsed JSON on PostgreSQL (pg parses `json` values itself). */
export type JsonRows<T> = string | T[];

/**
 * The aggregate of a correlated subquery's rows as one JSON array of objects (`key: column`): how a
 * contact's addresses, memberships and values come back with the contact in the same statement, for
 * one contact or a whole page. No rows give `[]`. The order is unspecified and the caller sorts:
 * an ORDER BY inside the aggregate costs SQLite a temporary b-tree per row (measured: more than the
 * rest of a single-contact statement), where sorting a contact's few children in JS costs nothing.
 */
export function jsonArrayOf<T>(
  dialect: DialectName,
  columns: { [K in keyof T & string]: string },
): RawBuilder<JsonRows<T>> {
  const pairs = sql.join(Object.entries<string>(columns).flatMap(([key, column]) => [sql.lit(key), sql.ref(column)]));
  return dialect === 'sqlite'
    ? sql`json_group_array(json_object(${pairs}))`
    : sql`coalesce(json_agg(json_build_object(${pairs})), '[]'::json)`;
}

export function parseJsonRows<T>(value: JsonRows<T> | null): T[] {
  if (value === null) return [];
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}

/**
 * Rows by ascending id: the order the API shows children in (and creation order). They mostly come
 * in that order already (an index on the parent key lists equal keys by rowid), and checking is
 * cheaper than sorting.
 */
export function byId<T extends { id: number }>(rows: T[]): T[] {
  for (let i = 1; i < rows.length; i += 1) {
    if ((rows[i - 1] as T).id > (rows[i] as T).id) return rows.sort((a, b) => a.id - b.id);
  }
  return rows;
}
