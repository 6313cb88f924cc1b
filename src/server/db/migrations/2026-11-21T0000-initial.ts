import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';
import { idColumn as idColumn_ } from './id-column.ts';

/** The initial schema (see db/schema.ts for what each column holds). */
export function initial(dialect: DialectName): Migration {
  const { type: id, build: idColumn } = idColumn_(dialect);

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', id, idColumn)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('domain', 'text')
        .addColumn('max_contacts', 'integer', (c) => c.notNull())
        .addColumn('ccid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('administrators')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('username', 'text')
        .addColumn('description', 'text')
        .addColumn('firstname', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('surname', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cidr', 'text')
        .addColumn('custom_image', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('mfa_type', 'text')
        .addColumn('api', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('authn_provider', 'text')
        .addColumn('notifications', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('limit_metadata', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('limit_lists', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('password_hash', 'text')
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();
      // A username is unique across the installation: the sign-in page knows no account.
      await db.schema.createIndex('administrators_username').unique().on('administrators').column('username').execute();
      await db.schema.createIndex('administrators_account').on('administrators').column('account_id').execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', id, idColumn)
        .addColumn('administrator_id', 'integer', (c) => c.notNull().references('administrators.id').onDelete('cascade'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('expires_at', 'text')
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('custom_fields')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('identifier', 'text')
        .addUniqueConstraint('custom_fields_name', ['account_id', 'name'])
        .addUniqueConstraint('custom_fields_identifier', ['account_id', 'identifier'])
        .execute();

      await db.schema
        .createTable('contacts')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('ccid', 'text')
        .addColumn('firstname', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('surname', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .addUniqueConstraint('contacts_ccid', ['account_id', 'ccid'])
        .execute();
      await db.schema.createIndex('contacts_account').on('contacts').columns(['account_id', 'id']).execute();

      await db.schema
        .createTable('contact_values')
        .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('contact_values_pk', ['contact_id', 'field_id'])
        .execute();

      await db.schema
        .createTable('emails')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('digest', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ceid', 'text')
        .addUniqueConstraint('emails_key', ['account_id', 'email_key'])
        .execute();
      await db.schema.createIndex('emails_contact').on('emails').column('contact_id').execute();

      await db.schema
        .createTable('lists')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('archive_password_hash', 'text')
        .addUniqueConstraint('lists_name', ['account_id', 'name'])
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('list_id', 'integer', (c) => c.notNull().references('lists.id').onDelete('cascade'))
        .addColumn('digest', 'integer')
        .addUniqueConstraint('memberships_pair', ['contact_id', 'list_id'])
        .execute();
      await db.schema.createIndex('memberships_list').on('memberships').column('list_id').execute();

      await db.schema
        .createTable('messages')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('list_id', 'integer', (c) => c.notNull().references('lists.id').onDelete('cascade'))
        .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('from_phrase', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('from_address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('time', 'bigint', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('thread_id', 'integer', (c) => c.notNull())
        .addColumn('parent_id', 'integer')
        .addColumn('content_plain', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('content_html', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('messages_account_time').on('messages').columns(['account_id', 'time', 'id']).execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
        .addColumn('email_id', 'integer', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();

      // Counters need atomicity, not durability (DESIGN.md "Hot path"): unlogged on PostgreSQL.
      if (dialect === 'postgres') {
        await sql`create unlogged table rate_counters (
          account_id integer not null, window_start bigint not null, used integer not null,
          primary key (account_id, window_start))`.execute(db);
      } else {
        await db.schema
          .createTable('rate_counters')
          .addColumn('account_id', 'integer', (c) => c.notNull())
          .addColumn('window_start', 'integer', (c) => c.notNull())
          .addColumn('used', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('rate_counters_pk', ['account_id', 'window_start'])
          .execute();
      }
    },

    async down(db: Kysely<unknown>) {
      for (const table of [
        'rate_counters', 'outbox', 'messages', 'memberships', 'lists', 'emails', 'contact_values',
        'contacts', 'custom_fields', 'api_keys', 'administrators', 'accounts',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
