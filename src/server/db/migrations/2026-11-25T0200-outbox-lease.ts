import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * One outbox worker per row, however many `serve` processes share the database (issue 18): a
 * claimed row (`sending`) carries `lease_until` (Unix ms), which its worker renews while the SMTP
 * transaction runs. Another worker takes a `sending` row over only once its lease has run out: its
 * worker died. Rows left `sending` by an older version have lease 0: taken over at once, as the
 * start-up recovery did.
 */
export const outboxLease: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['outbox', 'notices'])
      await db.schema
        .alterTable(table)
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['outbox', 'notices'])
      await db.schema.alterTable(table).dropColumn('lease_until').execute();
  },
};
