import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * Spec §4.1 search over 100,000 contacts: on PostgreSQL a trigram GIN index serves
 * `search_text like '%term%'`. pg_trgm ships with PostgreSQL but may be missing or not allowed; then
 * the search scans, as it does on SQLite. A savepoint keeps a refused `create extension` from
 * aborting the migration's transaction.
 */
export function contactsSearchTrigram(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      const available = await sql<{
        name: string;
      }>`select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
      if (available.rows.length === 0) return;
      await sql`savepoint contacts_search_trigram`.execute(db);
      try {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index if not exists contacts_search_trgm on contacts using gin (search_text gin_trgm_ops)`.execute(
          db,
        );
        await sql`release savepoint contacts_search_trigram`.execute(db);
      } catch {
        await sql`rollback to savepoint contacts_search_trigram`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`drop index if exists contacts_search_trgm`.execute(db);
    },
  };
}
