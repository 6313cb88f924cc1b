import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import {
  POSTGRES_TEXT,
  SQLITE_KEY_FACTOR,
  sqliteText,
} from '../db/migrations/2026-11-24T0100-contact-search.ts';
import type { Database } from '../db/schema.ts';

/**
 * The rule of migration 2026-11-24T0100, checked on a whole database: every contact's searchable
 * text is what its rows make now, the contacts on no list are exactly the orphans, and (SQLite) the
 * full-text index holds exactly the stored texts. Answers one line per break.
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
    return problems;
  }
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
