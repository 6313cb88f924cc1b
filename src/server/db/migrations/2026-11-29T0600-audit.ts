import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * The audit log (issue 26 item 4): one append-only row per change of an API object, written in the
 * transaction of the change (src/server/audit/). No foreign keys: an entry outlives the account,
 * list, administrator or contact it names; AUDIT_RETENTION_DAYS ends it. Each index is a filter
 * of `GET /audit/` in the order it pages (newest first: `time`, then `id`), within the account;
 * the operation filter reads within them (its reads run off the server's thread, audit-read.ts).
 */
export function audit(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_entries')
        // 64 bits on PostgreSQL too: a busy installation writes billions of entries in its years.
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        // null: the group's (accounts, global administrators).
        .addColumn('account_id', 'integer')
        // ISO 8601 from the server's clock.
        .addColumn('time', 'text', (c) => c.notNull())
        // 'administrator', 'address' or 'system'.
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('actor_name', 'text')
        // The name in lower case: the actor filter.
        .addColumn('actor_key', 'text')
        .addColumn('address', 'text')
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('object_type', 'text', (c) => c.notNull())
        .addColumn('object_id', 'text')
        .addColumn('list_id', 'integer')
        // The list's name when the change was made (a list renamed later keeps its id).
        .addColumn('list_name', 'text')
        // JSON: [{field, old, new} | {field, secret, new}].
        .addColumn('changes', 'text', (c) => c.notNull().defaultTo('[]'))
        // JSON object.
        .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      for (const [name, columns] of [
        ['audit_entries_time', ['account_id', 'time', 'id']],
        ['audit_entries_list', ['account_id', 'list_id', 'time', 'id']],
        ['audit_entries_object', ['account_id', 'object_type', 'object_id', 'time', 'id']],
        ['audit_entries_actor', ['account_id', 'actor_key', 'time', 'id']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('audit_entries')
          .columns([...columns])
          .execute();
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_entries').ifExists().execute();
    },
  };
}
