import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * The members' archive (issue 26 item 3): its pages read a list's threads and its messages'
 * words, and must answer fast however large the archive is.
 *
 * - `messages_list_thread` (list, thread, id): a page of threads, newest first, reads the index
 *   down from where the page starts and stops after it; a thread's messages are one range of it.
 * - The search (subject, sender, the first ARCHIVE_SEARCH_CHARS of the plain text), with what each
 *   database has built in:
 *   - SQLite: an FTS5 index without content of its own (the text is in `messages`), whose rowid is
 *     `list_id * 2^31 + id`, so that one list's messages are one rowid range and a search seeks
 *     into it rather than reading every list's entries (as contact search does, migration
 *     2026-11-24T0100). `detail=none`: the archive matches words and word beginnings, never
 *     phrases, so positions would only take space. Triggers keep it in step with `messages` in the
 *     writing transaction, so a deleted message is gone from it at once (spec §4.5).
 *   - PostgreSQL: a stored `tsvector` column ('simple': no stemming, no stop words, like FTS5's
 *     unicode61) under a GIN index, and (list, id), so that the planner may instead walk a list's
 *     newest messages and stop at the page's last match when a word is common.
 *   Addresses, host names and paths are split into their words on both (`@ . / : _ +`).
 */
export const ARCHIVE_SEARCH_CHARS = 100_000;

/** The rowid range of one list's messages in the SQLite index. */
export const SQLITE_LIST_FACTOR = 2147483648;

const sqliteWords = (row: string) =>
  `${row}.subject || ' ' || ${row}.from_phrase || ' ' || ${row}.from_address || ' ' || substr(${row}.content_plain, 1, ${ARCHIVE_SEARCH_CHARS})`;
const sqliteKey = (row: string) => `${row}.list_id * ${SQLITE_LIST_FACTOR} + ${row}.id`;

const POSTGRES_WORDS = `to_tsvector('simple'::regconfig, translate(
  subject || ' ' || from_phrase || ' ' || from_address || ' ' || left(content_plain, ${ARCHIVE_SEARCH_CHARS}),
  '@./:_+', '      '))`;

export function archive(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('messages_list_thread')
        .on('messages')
        .columns(['list_id', 'thread_id', 'id'])
        .execute();
      if (dialect === 'sqlite') {
        await sql`create virtual table message_search using fts5(words, content='',
          tokenize='unicode61 remove_diacritics 2', detail=none, columnsize=0)`.execute(db);
        await sql
          .raw(
            `insert into message_search (rowid, words) select ${sqliteKey('m')}, ${sqliteWords('m')} from messages m`,
          )
          .execute(db);
        const remove = `insert into message_search (message_search, rowid, words)
          values ('delete', ${sqliteKey('old')}, ${sqliteWords('old')});`;
        const add = `insert into message_search (rowid, words) values (${sqliteKey('new')}, ${sqliteWords('new')});`;
        await sql
          .raw(`create trigger message_search_insert after insert on messages begin ${add} end`)
          .execute(db);
        await sql
          .raw(`create trigger message_search_delete after delete on messages begin ${remove} end`)
          .execute(db);
        await sql
          .raw(
            `create trigger message_search_update after update of list_id, subject, from_phrase, from_address, content_plain
            on messages begin ${remove} ${add} end`,
          )
          .execute(db);
      } else {
        await sql
          .raw(
            `alter table messages add column search_words tsvector generated always as (${POSTGRES_WORDS}) stored`,
          )
          .execute(db);
        await sql`create index messages_search on messages using gin (search_words)`.execute(db);
        await db.schema
          .createIndex('messages_list_newest')
          .on('messages')
          .columns(['list_id', 'id'])
          .execute();
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        for (const trigger of ['insert', 'delete', 'update'])
          await sql.raw(`drop trigger if exists message_search_${trigger}`).execute(db);
        await sql`drop table if exists message_search`.execute(db);
      } else {
        await db.schema.dropIndex('messages_list_newest').ifExists().execute();
        await sql`drop index if exists messages_search`.execute(db);
        await sql`alter table messages drop column if exists search_words`.execute(db);
      }
      await db.schema.dropIndex('messages_list_thread').ifExists().execute();
    },
  };
}
