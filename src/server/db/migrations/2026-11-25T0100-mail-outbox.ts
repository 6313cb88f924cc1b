import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';
import { idColumn as idColumn_ } from './id-column.ts';

/**
 * Mail out (issue 18 item 4, SECURITY.md 38). The outbox gets what a durable worker needs:
 * `attempts` and `next_attempt` (Unix ms) for retries with back-off, and `batch`, the key of the
 * SMTP transaction a row was claimed for, written (status `sending`) before the send and cleared
 * (status `sent`) after it, each in its own transaction: after a crash the rows still `sending`
 * are sent again as the same batch, under the same key. One row per message and address
 * (`outbox_once`): an address is never queued twice for one message.
 *
 * `notices`: single mails that are not list posts (hold and reject notices to senders, moderator
 * notifications, welcome messages), drained by the same worker. `message_sources`: the message as
 * received for archived mail that came by SMTP, so that attachments go out unless
 * `strip_attachments` (spec §2.4).
 */
export function mailOutbox(dialect: DialectName): Migration {
  const { type: id, build: idColumn } = idColumn_(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('outbox')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('outbox')
        .addColumn('next_attempt', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('outbox').addColumn('batch', 'text').execute();
      await db.schema
        .createIndex('outbox_once')
        .on('outbox')
        .columns(['message_id', 'email_id'])
        .unique()
        .execute();
      // The worker's claim: the oldest message's due rows, in id order, from the index alone.
      await db.schema
        .createIndex('outbox_work')
        .on('outbox')
        .columns(['status', 'message_id', 'id'])
        .execute();
      await db.schema.createIndex('outbox_batch').on('outbox').column('batch').execute();

      await db.schema
        .createTable('notices')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('from_address', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('list_address', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notices_work')
        .on('notices')
        .columns(['status', 'next_attempt', 'id'])
        .execute();

      await db.schema
        .createTable('message_sources')
        .addColumn('message_id', 'integer', (c) =>
          c.primaryKey().references('messages.id').onDelete('cascade'),
        )
        .addColumn('raw', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('message_sources').ifExists().execute();
      await db.schema.dropTable('notices').ifExists().execute();
      for (const index of ['outbox_batch', 'outbox_work', 'outbox_once'])
        await db.schema.dropIndex(index).ifExists().execute();
      for (const column of ['batch', 'next_attempt', 'attempts'])
        await db.schema.alterTable('outbox').dropColumn(column).execute();
    },
  };
}
