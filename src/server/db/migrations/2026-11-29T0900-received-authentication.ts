import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What sender verification found when a message came in by SMTP (issue 26 item 2,
 * mail/received-authentication.ts: the From domain's DMARC policy, the Authentication-Results an
 * ARC seal carries, the chain's validation), as JSON text: `held_messages.received_authentication`
 * while it waits for a moderator, then `message_authentication` beside the archived message, which
 * the fan-out reads instead of asking DNS again. Apart from `messages`, whose rows the archive's
 * pages scan: a message sent through the API has none. Messages kept before this have none either,
 * and go out as a post nobody verified does.
 */
export const receivedAuthentication: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('held_messages')
      .addColumn('received_authentication', 'text')
      .execute();
    await db.schema
      .createTable('message_authentication')
      .addColumn('message_id', 'integer', (c) =>
        c.primaryKey().references('messages.id').onDelete('cascade'),
      )
      .addColumn('received', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('message_authentication').ifExists().execute();
    await db.schema.alterTable('held_messages').dropColumn('received_authentication').execute();
  },
};
