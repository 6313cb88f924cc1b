import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * `held_messages.answerable` (issue 28 item 2): whether the held message's From address may be
 * answered, because the message authenticated for its domain (SPF, DKIM, DMARC). A moderator's
 * rejection tells the sender only then: to a forged address it would be backscatter. Messages
 * held before this are taken as not authenticated.
 */
export const heldAnswerable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('held_messages')
      .addColumn('answerable', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('held_messages').dropColumn('answerable').execute();
  },
};
