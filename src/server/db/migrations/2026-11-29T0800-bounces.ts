import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Bounces (issue 26 item 1, after Mailman 3's bounce score):
 * - `email_bounces`: one row per address that bounced, while it matters: its score (hard
 *   failures, at most one a day, started again once stale), its last bounce of any kind (a
 *   temporary one is recorded, never counted), and, past the threshold, when the address was
 *   paused (spec §2.2 `paused`), the warnings mailed since, when the next is due (the timer's
 *   index) and when its memberships were removed.
 *   Kept apart from `emails` so that a bounce rewrites no contact document and the spec's email
 *   object stays as it is; it goes with its address (cascade).
 * - `email_bounce_lists`: the lists whose deliveries to the address failed for the current score:
 *   those the address leaves when the warnings run out.
 */
export const bounces: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('email_bounces')
      .addColumn('email_id', 'integer', (c) =>
        c.primaryKey().references('emails.id').onDelete('cascade'),
      )
      .addColumn('account_id', 'integer', (c) =>
        c.notNull().references('accounts.id').onDelete('cascade'),
      )
      .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('counted_at', 'text')
      .addColumn('last_at', 'text', (c) => c.notNull())
      // 'hard' or 'temporary'.
      .addColumn('last_kind', 'text', (c) => c.notNull())
      .addColumn('last_status', 'text')
      .addColumn('last_reason', 'text', (c) => c.notNull())
      .addColumn('paused_at', 'text')
      .addColumn('warnings', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('warned_at', 'text')
      // When the timer owes the paused address its next warning, or its removal.
      .addColumn('due_at', 'text')
      .addColumn('removed_at', 'text')
      .execute();
    await db.schema
      .createIndex('email_bounces_account')
      .on('email_bounces')
      .columns(['account_id', 'last_at'])
      .execute();
    await db.schema
      .createIndex('email_bounces_due')
      .on('email_bounces')
      .columns(['due_at'])
      .execute();
    await db.schema
      .createTable('email_bounce_lists')
      .addColumn('email_id', 'integer', (c) =>
        c.notNull().references('email_bounces.email_id').onDelete('cascade'),
      )
      .addColumn('list_id', 'integer', (c) =>
        c.notNull().references('lists.id').onDelete('cascade'),
      )
      .addColumn('counted_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('email_bounce_lists_pk', ['email_id', 'list_id'])
      .execute();
    await db.schema
      .createIndex('email_bounce_lists_list')
      .on('email_bounce_lists')
      .column('list_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('email_bounce_lists').execute();
    await db.schema.dropTable('email_bounces').execute();
  },
};
