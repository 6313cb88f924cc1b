import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Child-key indexes for the message archive. Deleting a list or an account cascades to its
 * messages and their pending deliveries; without these, every deleted message would scan the whole
 * outbox (both dialects look the child rows up by the foreign key). `messages_list` also serves the
 * per-list message lookups (threads, limit_lists principals).
 */
export const messageIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('outbox_message').on('outbox').column('message_id').execute();
    await db.schema
      .createIndex('messages_list')
      .on('messages')
      .columns(['list_id', 'time', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('messages_list').ifExists().execute();
    await db.schema.dropIndex('outbox_message').ifExists().execute();
  },
};
