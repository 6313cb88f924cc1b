import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * The SQLite trigram index (migration 0300) compares characters exactly (`case_sensitive 1`).
 * `search_text` and the search term are both lower-cased by the server, so a phrase match is then
 * exactly a substring match, and the search no longer re-checks every candidate with LIKE (which
 * read each candidate's row: half of a search's time over 100k contacts). The triggers of 0300
 * keep the new table in step, as they name it.
 */
export function contactsFtsExact(dialect: DialectName): Migration {
  const rebuild = async (db: Kysely<unknown>, tokenize: string) => {
    await sql`drop table contacts_fts`.execute(db);
    await sql`create virtual table contacts_fts using fts5(
      search_text, content='contacts', content_rowid='id', tokenize=${sql.lit(tokenize)})`.execute(db);
    await sql`insert into contacts_fts(contacts_fts) values ('rebuild')`.execute(db);
  };
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await rebuild(db, 'trigram case_sensitive 1');
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await rebuild(db, 'trigram');
    },
  };
}
