import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import {
  POSTGRES_TEXT,
  SQLITE_KEY_FACTOR,
  sqliteText,
} from '../db/migrations/2026-11-24T0100-contact-search.ts';
import { SQLITE_GRAMS_TABLE_ARGUMENTS } from '../db/migrations/2026-11-27T0000-contact-search-short-terms.ts';
import { sqliteGramText } from '../db/sqlite-functions.ts';
import type { Database } from '../db/schema.ts';

/**
 * The rule of migration 2026-11-24T0100, checked on a whole database: every contact's searchable
 * text is what its rows make now, the contacts on no list are exactly the orphans, and (SQLite) the
 * full-text index holds exactly the stored texts. Answers one line per break. The index of short
 * substrings (migration 2026-11-27T0000) is checked too: SQLite's against a copy built from the
 * stored texts, PostgreSQL's function against the same substrings made in JavaScript.
 */
export async function staleSearchRows(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  const line = (what: string) => (row: { id: number | string }) =>
    problems.push(`contact ${row.id}: ${what}`);
  if (dialectOf(db) === 'sqlite') {
    const key = `c.account_id * ${SQLITE_KEY_FACTOR} + c.id`;
    const text = await sql
      .raw<{ id: number; stored: string | null; now: string }>(
        `select * from (
      select c.id, (select s.search_text from contact_search s where s.key = ${key}) as stored, ${sqliteText('c.id')} as now
      from contacts c) where stored is not now`,
      )
      .execute(db);
    for (const row of text.rows) {
      problems.push(
        `contact ${row.id}: search text ${JSON.stringify(row.stored)} behind its rows' ${JSON.stringify(row.now)}`,
      );
    }
    const extra = await sql
      .raw<{ id: number }>(
        `select s.key as id from contact_search s
      where not exists (select 1 from contacts c where ${key} = s.key)`,
      )
      .execute(db);
    extra.rows.forEach(line('search text of no contact (key)'));
    const orphans = await sql
      .raw<{ id: number }>(
        `select c.id from contacts c
      where (not exists (select 1 from memberships m where m.contact_id = c.id))
        is not (exists (select 1 from contact_orphans o where o.key = ${key}))
      union all select o.key from contact_orphans o where not exists (select 1 from contacts c where ${key} = o.key)`,
      )
      .execute(db);
    orphans.rows.forEach(line('orphan row does not follow its memberships'));
    try {
      await sql`insert into contact_search_fts (contact_search_fts, rank) values ('integrity-check', 1)`.execute(
        db,
      );
    } catch (error) {
      problems.push(`full-text index: ${error instanceof Error ? error.message : String(error)}`);
    }
    problems.push(...(await sqliteGramsProblems(db)));
    return problems;
  }
  problems.push(...(await postgresGramsProblems(db)));
  const text = await sql
    .raw<{ id: number; stored: string | null; now: string }>(
      `select c.id, s.search_text as stored,
      ${POSTGRES_TEXT} as now from contacts c left join contact_search s on s.contact_id = c.id
    where s.search_text is distinct from ${POSTGRES_TEXT} or s.account_id is distinct from c.account_id`,
    )
    .execute(db);
  for (const row of text.rows) {
    problems.push(
      `contact ${row.id}: search text ${JSON.stringify(row.stored)} behind its rows' ${JSON.stringify(row.now)}`,
    );
  }
  const orphans = await sql
    .raw<{ id: number }>(
      `select c.id from contacts c
    where (not exists (select 1 from memberships m where m.contact_id = c.id))
      <> (exists (select 1 from contact_orphans o where o.account_id = c.account_id and o.contact_id = c.id))`,
    )
    .execute(db);
  orphans.rows.forEach(line('orphan row does not follow its memberships'));
  return problems;
}

/**
 * SQLite: the index holds exactly the tokens of each contact that a copy built from the stored
 * texts holds (fts5vocab `instance`: one row per token and contact).
 */
async function sqliteGramsProblems(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  const texts = await sql<{
    key: number;
    text: string;
  }>`select key, search_text as text from contact_search`.execute(db);
  await sql
    .raw(`create virtual table temp.grams_copy using fts5(${SQLITE_GRAMS_TABLE_ARGUMENTS})`)
    .execute(db);
  try {
    for (const row of texts.rows) {
      await sql`insert into temp.grams_copy (rowid, grams) values (${row.key}, ${sqliteGramText(row.text)})`.execute(
        db,
      );
    }
    await sql`create virtual table temp.grams_held using fts5vocab(main, contact_search_grams, instance)`.execute(
      db,
    );
    await sql`create virtual table temp.grams_wanted using fts5vocab(temp, grams_copy, instance)`.execute(
      db,
    );
    const differences = await sql<{ doc: number; term: string; side: string }>`
      select doc, term, 'held, not wanted' as side from (select doc, term from temp.grams_held except select doc, term from temp.grams_wanted)
      union all select doc, term, 'wanted, not held' from (select doc, term from temp.grams_wanted except select doc, term from temp.grams_held)
      limit 20`.execute(db);
    for (const row of differences.rows)
      problems.push(
        `contact key ${row.doc}: short-substring index token ${JSON.stringify(row.term)} ${row.side}`,
      );
  } finally {
    await sql`drop table if exists temp.grams_held`.execute(db);
    await sql`drop table if exists temp.grams_wanted`.execute(db);
    await sql`drop table if exists temp.grams_copy`.execute(db);
  }
  return problems;
}

/** The 1- and 2-character substrings of a text, each once, sorted (the index's meaning). */
function shortSubstrings(text: string): string[] {
  const characters = Array.from(text);
  const all = characters.flatMap((character, at) => [
    character,
    character + (characters[at + 1] ?? ''),
  ]);
  return [...new Set(all)].sort();
}

/** PostgreSQL: `listkeeper_grams` gives every stored text's short substrings, no more. */
async function postgresGramsProblems(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ id: number; text: string; grams: string[] }>`
    select contact_id as id, search_text as text, listkeeper_grams(search_text) as grams from contact_search`.execute(
    db,
  );
  const problems: string[] = [];
  for (const row of rows.rows) {
    const made = [...new Set(row.grams)].sort();
    const wanted = shortSubstrings(row.text);
    if (made.join('\u0000') !== wanted.join('\u0000'))
      problems.push(
        `contact ${row.id}: listkeeper_grams gives ${JSON.stringify(made)}, not ${JSON.stringify(wanted)}`,
      );
  }
  return problems;
}
