import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * SECURITY.md 43, "never more than one confirmation per address per hour": when an address was last
 * mailed from the members' side. The per-address limit was a counter per clock hour
 * (`public_throttles`), which let a mail at 10:59 and another at 11:00 both go. One row per
 * address digest, its last mail's time: the next one goes only a full hour later.
 */
export const publicMailTimes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('public_mail_times')
      .addColumn('throttle_key', 'text', (c) => c.primaryKey())
      .addColumn('last_sent', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('public_mail_times').ifExists().execute();
  },
};
