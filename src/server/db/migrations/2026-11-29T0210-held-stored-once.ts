import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/** Rows converted a statement at a time: a held queue is bounded, its rows are not small. */
const BATCH = 50;

/** Runs `convert` on every held row, `columns` read, in id order, BATCH rows a read. */
async function eachHeldRow<T extends { id: number }>(
  db: Kysely<unknown>,
  columns: readonly string[],
  convert: (row: T) => Promise<unknown>,
): Promise<void> {
  const selected = sql.join(['id', ...columns].map((column) => sql.ref(column)));
  for (let after = 0; ;) {
    const { rows: batch } = await sql<T>`select ${selected} from held_messages
      where id > ${after} order by id limit ${BATCH}`.execute(db);
    for (const row of batch) await convert(row);
    const last = batch.at(-1);
    if (!last) return;
    after = last.id;
  }
}

/**
 * A held message stored once (issue 28 item 2, "anyone can grow the database without limit": three
 * messages of 9 MB grew it by 80 MB). It kept the source as base64 text, its text, and its HTML,
 * made from the text when the sender sent none: some 27 MB each. Now the source is kept once, and
 * the text and the sender's own HTML (NULL when none: the dashboard shows the text then) beside
 * it, each deflated (raw DEFLATE, RFC 1951), in bytes. Indexes for the bounds the listener checks
 * (per list, and per sender in the account: `lower(from_address)`) and for expiry (`received`).
 */
export function heldStoredOnce(dialect: DialectName): Migration {
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ['raw_deflated', 'plain_deflated', 'html_deflated'])
        await db.schema.alterTable('held_messages').addColumn(column, bytes).execute();
      await eachHeldRow<{ id: number; raw: string; content_plain: string; content_html: string }>(
        db,
        ['raw', 'content_plain', 'content_html'],
        (row) =>
          sql`update held_messages set
            raw_deflated = ${deflateRawSync(Buffer.from(row.raw, 'base64'))},
            plain_deflated = ${deflateRawSync(Buffer.from(row.content_plain))},
            html_deflated = ${row.content_html === '' ? null : deflateRawSync(Buffer.from(row.content_html))}
            where id = ${row.id}`.execute(db),
      );
      for (const column of ['raw', 'content_plain', 'content_html'])
        await db.schema.alterTable('held_messages').dropColumn(column).execute();
      await sql`create index held_messages_sender on held_messages (account_id, lower(from_address))`.execute(
        db,
      );
      await db.schema
        .createIndex('held_messages_received')
        .on('held_messages')
        .column('received')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('held_messages_received').ifExists().execute();
      await db.schema.dropIndex('held_messages_sender').ifExists().execute();
      for (const column of ['raw', 'content_plain', 'content_html'])
        await db.schema
          .alterTable('held_messages')
          .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
          .execute();
      const text = (value: Buffer | null) => (value ? inflateRawSync(value) : Buffer.alloc(0));
      await eachHeldRow<{
        id: number;
        raw_deflated: Buffer | null;
        plain_deflated: Buffer | null;
        html_deflated: Buffer | null;
      }>(db, ['raw_deflated', 'plain_deflated', 'html_deflated'], (row) =>
        sql`update held_messages set
            raw = ${text(row.raw_deflated).toString('base64')},
            content_plain = ${text(row.plain_deflated).toString()},
            content_html = ${text(row.html_deflated).toString()}
            where id = ${row.id}`.execute(db),
      );
      for (const column of ['raw_deflated', 'plain_deflated', 'html_deflated'])
        await db.schema.alterTable('held_messages').dropColumn(column).execute();
    },
  };
}
