import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * Mail to administrators (issue 27 item 4, spec §2.6 `welcome_email`):
 * - `notices.account_id` may be null: a global administrator of the group (spec §4.8) belongs to
 *   no account, and gets its welcome mail through the same outbox as everyone's mail. SQLite
 *   cannot drop a NOT NULL, so the table is made again as its documentation says (create the new
 *   shape, copy, drop, rename, index), from its own stored definition: columns other migrations
 *   added are kept, and so is the id sequence (a notice's id keys its sending, never reused).
 * - `mail_tokens` are found by their administrator, whose deletion takes them (foreign key).
 */
export function administratorMail(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres')
        await sql`alter table notices alter column account_id drop not null`.execute(db);
      else await rebuildNotices(db, (definition) => definition.replace(NOT_NULL, NULLABLE));
      await db.schema
        .createIndex('mail_tokens_administrator')
        .on('mail_tokens')
        .column('administrator_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('mail_tokens_administrator').ifExists().execute();
      // Mail of no account cannot stay in a table that requires one.
      await sql`delete from notices where account_id is null`.execute(db);
      if (dialect === 'postgres')
        await sql`alter table notices alter column account_id set not null`.execute(db);
      else await rebuildNotices(db, (definition) => definition.replace(NULLABLE, NOT_NULL));
    },
  };
}

const NOT_NULL = '"account_id" integer not null';
const NULLABLE = '"account_id" integer';

async function rebuildNotices(
  db: Kysely<unknown>,
  reshape: (definition: string) => string,
): Promise<void> {
  const stored = await sql<{ type: string; sql: string }>`select type, sql from sqlite_master
    where tbl_name = 'notices' and sql is not null`.execute(db);
  const table = stored.rows.find((row) => row.type === 'table')?.sql ?? '';
  const reshaped = reshape(table);
  if (reshaped === table) throw new Error('notices: account_id is not defined as expected');
  const sequence = await sql<{ seq: number }>`select seq from sqlite_sequence
    where name = 'notices'`.execute(db);
  await sql
    .raw(reshaped.replace(/^CREATE TABLE "notices"/, 'CREATE TABLE "notices_rebuilt"'))
    .execute(db);
  await sql`insert into notices_rebuilt select * from notices`.execute(db);
  const seq = sequence.rows[0]?.seq;
  if (seq !== undefined) {
    await sql`delete from sqlite_sequence where name = 'notices_rebuilt'`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values ('notices_rebuilt', ${seq})`.execute(
      db,
    );
  }
  await sql`drop table notices`.execute(db);
  await sql`alter table notices_rebuilt rename to notices`.execute(db);
  for (const row of stored.rows) if (row.type !== 'table') await sql.raw(row.sql).execute(db);
}
