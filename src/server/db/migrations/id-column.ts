import type { DialectName } from '../dialect.ts';

/**
 * The auto-incrementing integer primary key, spelled per dialect: PostgreSQL `serial`, SQLite
 * `integer primary key autoincrement` (never reusing a deleted row's id).
 */
export function idColumn(dialect: DialectName) {
  return {
    type: dialect === 'postgres' ? ('serial' as const) : ('integer' as const),
    build: <T extends { primaryKey(): T; autoIncrement(): T }>(c: T) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
  };
}
