import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * SQLite's counterpart of the pg_trgm index: an FTS5 trigram index over `contacts.search_text`
 * (an external-content table, kept in step by triggers), so a substring search over 100k contacts
 * reads the index instead of scanning every row. PostgreSQL has its GIN index (migration 0100).
 */
export function contactsSearchFts(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`create virtual table contacts_fts using fts5(
        search_text, content='contacts', content_rowid='id', tokenize='trigram')`.execute(db);
      await sql`insert into contacts_fts(rowid, search_text) select id, search_text from contacts`.execute(db);
      await sql`create trigger contacts_fts_insert after insert on contacts begin
        insert into contacts_fts(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
      await sql`create trigger contacts_fts_delete after delete on contacts begin
        insert into contacts_fts(contacts_fts, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(db);
      await sql`create trigger contacts_fts_update after update of search_text on contacts begin
        insert into contacts_fts(contacts_fts, rowid, search_text) values ('delete', old.id, old.search_text);
        insert into contacts_fts(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      for (const trigger of ['contacts_fts_insert', 'contacts_fts_delete', 'contacts_fts_update']) {
        await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
      }
      await sql`drop table if exists contacts_fts`.execute(db);
    },
  };
}
