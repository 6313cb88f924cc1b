import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';
import { SQLITE_GRAMS_FUNCTION } from '../sqlite-functions.ts';
import {
  SQLITE_KEY_FACTOR,
  SQLITE_SEARCH_TRIGGER_PREFIX,
} from './2026-11-24T0100-contact-search.ts';

/**
 * Spec §4.1 search for terms of one or two characters (issue 16 §3, SECURITY.md 29): an index of
 * the 1- and 2-character substrings of every contact's search text, beside the trigram index of
 * migration 2026-11-24T0100 (which extracts nothing from `xu`: the search then compared the text
 * of every contact of the account, 95 ms over 100,000 and ten times that over 1M).
 *
 * A short term keeps the meaning of every other term, a case-insensitive substring: surnames like
 * Xu, Li, Ng are whole words, but `xu` must also find `alexu@…`, as `xue` does. (A word index with
 * prefix queries was the other choice: it would give short terms a rule of their own, and the two
 * databases split addresses into words differently.) Substrings with white space are never looked
 * up: a term holds none (services/search-terms.ts).
 *
 * SQLite: `contact_search_grams`, an FTS5 table over, for each character of the text, that
 * character and the next one (`Xu Li` → `Xu u  L Li i`). Its tokenizer takes every character but
 * white space and control characters as part of a token, and folds case as the trigram index
 * does (Unicode, accents kept): the 2-character substrings are its tokens, and each character is
 * the first of one, so its 1-character prefix index (`prefix='1'`) holds the characters. A term is
 * a token (`"xu"`) or a prefix (`"x" *`). detail=none: the index holds which contacts have a
 * token, nothing more. Its rowid is the contact's key, as for the trigram index, so a search
 * reads its account's range only. Triggers on `contact_search` keep it, with the text made by
 * `listkeeper_grams_text`, a function the server registers on its connection (db/sqlite-functions.ts).
 * Made in SQL, one character at a time, it took 29 µs for a 74-character text against 6 in
 * JavaScript, and a contact's 100 addresses, each rewriting its growing text, took seconds. A
 * program writing contacts without the function fails on the trigger: an index is never left
 * behind its texts. test/contact-search-check.ts compares the index with a copy built from the
 * stored texts.
 *
 * PostgreSQL: a GIN index over `listkeeper_grams(search_text)`, the array of the text's 1- and
 * 2-character substrings (the text is lower-cased already), queried with `@>`. The function
 * splits the text in pairs with `regexp_replace`, twice (from the first and from the second
 * character): a loop over characters in SQL took three times as long, and the index build is
 * most of the demo's added time.
 */
export function contactSearchShortTerms(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await sqliteUp(db);
      else await postgresUp(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await sqliteDown(db);
      else await postgresDown(db);
    },
  };
}

// --- SQLite ----------------------------------------------------------------------------------------

/**
 * Token characters: every Unicode category but separators (Z*) and control characters (Cc), so
 * that `@e`, `.n`, `ø` are tokens; remove_diacritics 0 keeps `é` apart from `e`, as the trigram
 * index does.
 */
const SQLITE_GRAMS_TOKENIZER = `unicode61 remove_diacritics 0 categories 'L* M* N* P* S* Co Cn Cs Cf'`;

/** The FTS5 arguments of the table (test/contact-search-check.ts builds a copy to compare with). */
export const SQLITE_GRAMS_TABLE_ARGUMENTS = `grams, content='', detail=none, columnsize=0, prefix='1', tokenize="${SQLITE_GRAMS_TOKENIZER}"`;

/**
 * Fills the index for the contacts with an id above `afterId` (this migration, the demo's bulk
 * load with the triggers dropped).
 */
export async function sqliteGramsBackfill(db: Kysely<unknown>, afterId: number): Promise<void> {
  await sql`insert into contact_search_grams (rowid, grams)
    select s.key, ${sql.raw(SQLITE_GRAMS_FUNCTION)}(s.search_text)
    from contacts c join contact_search s on s.key = c.account_id * ${SQLITE_KEY_FACTOR} + c.id
    where c.id > ${afterId}`.execute(db);
}

/** The triggers, named with migration 0100's prefix: the demo drops and re-creates them all. */
const SQLITE_GRAMS_TRIGGERS: [string, string][] = [
  [
    'grams_insert',
    `after insert on contact_search begin
    insert into contact_search_grams (rowid, grams) values (new.key, ${SQLITE_GRAMS_FUNCTION}(new.search_text)); end`,
  ],
  [
    'grams_delete',
    `after delete on contact_search begin
    insert into contact_search_grams (contact_search_grams, rowid, grams)
      values ('delete', old.key, ${SQLITE_GRAMS_FUNCTION}(old.search_text)); end`,
  ],
  [
    'grams_update',
    `after update of search_text on contact_search when old.search_text is not new.search_text begin
    insert into contact_search_grams (contact_search_grams, rowid, grams)
      values ('delete', old.key, ${SQLITE_GRAMS_FUNCTION}(old.search_text));
    insert into contact_search_grams (rowid, grams) values (new.key, ${SQLITE_GRAMS_FUNCTION}(new.search_text)); end`,
  ],
];

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create virtual table contact_search_grams using fts5(${SQLITE_GRAMS_TABLE_ARGUMENTS})`)
    .execute(db);
  await sqliteGramsBackfill(db, 0);
  for (const [name, body] of SQLITE_GRAMS_TRIGGERS) {
    await sql.raw(`create trigger ${SQLITE_SEARCH_TRIGGER_PREFIX}${name} ${body}`).execute(db);
  }
}

async function sqliteDown(db: Kysely<unknown>): Promise<void> {
  for (const [name] of SQLITE_GRAMS_TRIGGERS) {
    await sql`drop trigger if exists ${sql.id(`${SQLITE_SEARCH_TRIGGER_PREFIX}${name}`)}`.execute(
      db,
    );
  }
  await sql`drop table if exists contact_search_grams`.execute(db);
}

// --- PostgreSQL ------------------------------------------------------------------------------------

/**
 * The 1- and 2-character substrings of a text, with repeats (the index keeps each once): its
 * characters, and its pairs from the first and from the second character. U+0001 splits the
 * pairs; a text holding it is split by `regexp_matches` instead, slower but as exact. Its cost
 * (100, SQL's default, said aloud) is above LIKE's: the planner compares a row's text with LIKE
 * before it computes this. Higher (1000) made the planner cost a search so high that it started
 * a parallel worker for it, which took longer than the search (8 ms against 1.3 ms for `xu`).
 */
const POSTGRES_GRAMS_FUNCTION = `create function listkeeper_grams(text) returns text[]
  language sql immutable strict parallel safe cost 100 as $$
  select array_remove(string_to_array($1, null) || case when strpos($1, chr(1)) = 0
    then string_to_array(regexp_replace($1, '(..)', E'\\\\1\\x01', 'g'), chr(1))
      || string_to_array(regexp_replace(substr($1, 2), '(..)', E'\\\\1\\x01', 'g'), chr(1))
    else array(select (regexp_matches($1, '..', 'g'))[1])
      || array(select (regexp_matches(substr($1, 2), '..', 'g'))[1]) end, '')
$$`;

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  await sql.raw(POSTGRES_GRAMS_FUNCTION).execute(db);
  await sql`create index contact_search_grams on contact_search using gin (listkeeper_grams(search_text))`.execute(
    db,
  );
  // Statistics of the indexed expression: the planner weighs a term's share of the contacts.
  await sql`analyze contact_search`.execute(db);
}

async function postgresDown(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists contact_search_grams`.execute(db);
  await sql`drop function if exists listkeeper_grams(text)`.execute(db);
}
