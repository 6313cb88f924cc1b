import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * PostgreSQL: a search of contacts never starts parallel workers (issue 28 item 7). Over 1M
 * contacts the planner gave the count of a short term (`xu`, 2 % of them) two workers; on the
 * bench's 2 cores, which the server and its clients share, that took longer than one process
 * (measured under the same load: the count's p50 43–53 ms with workers, 20–30 without; the API's
 * search p50 48–52 ms against 37–41). A search is one of many requests at once: its workers take
 * cores from the others' (SQLite runs it on one reader thread as well).
 */
export function contactSearchSerial(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres')
        await sql`alter table contact_search set (parallel_workers = 0)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres')
        await sql`alter table contact_search reset (parallel_workers)`.execute(db);
    },
  };
}
