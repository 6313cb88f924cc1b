import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';
import { idColumn as idColumn_ } from './id-column.ts';

/**
 * `held_messages`: mail the posting policy held for a moderator (issue 18, the held queue
 * extension). The parsed fields answer the queue; `raw` keeps the message as received (base64, so
 * any bytes survive both dialects' text) for when it is approved and sent out. A row leaves the
 * table when a moderator approves, rejects or discards it.
 */
export function heldMessages(dialect: DialectName): Migration {
  const { type: id, build: idColumn } = idColumn_(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('held_messages')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('list_id', 'integer', (c) =>
          c.notNull().references('lists.id').onDelete('cascade'),
        )
        .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('from_phrase', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('from_address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('received', 'bigint', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('setting', 'text')
        .addColumn('reason', 'text', (c) => c.notNull())
        // JSON: every holding rule ({rule, setting, reason}), and the header fields in order.
        .addColumn('reasons', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('headers', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('content_plain', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('content_html', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('raw', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createIndex('held_messages_account')
        .on('held_messages')
        .columns(['account_id', 'received', 'id'])
        .execute();
      await db.schema
        .createIndex('held_messages_list')
        .on('held_messages')
        .column('list_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('held_messages').ifExists().execute();
    },
  };
}
