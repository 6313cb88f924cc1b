import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';
import { idColumn as idColumn_ } from './id-column.ts';

/**
 * The members' side (issue 25):
 * - `server_secrets`: the installation's keys (the MAC key of the signed links in every delivery),
 *   made once and shared by every `serve` process on the database.
 * - `member_requests`: a join or leave on its way (Mailman 3's subscription workflow): waiting for
 *   the address to confirm, then, by the list's policy, for a moderator. One per list, kind and
 *   address: asking again replaces it.
 * - `mail_tokens`: the random tokens mailed to an address (confirm a request, open the archive, an
 *   administrator's first password), stored as SHA-256 only, bound to one list (or administrator),
 *   one address and one purpose, single use, expiring.
 * - `public_throttles`: counters of the public pages' rate limits (per client, per address), in the
 *   database so that several processes count together.
 * - `notices.reply_to`: a confirmation is answered by replying to it (`<list>-confirm+TOKEN@`);
 *   `notices.list_id`, `email_id`: a digest names its one member, as a delivery does.
 */
export function members(dialect: DialectName): Migration {
  const { type: id, build: idColumn } = idColumn_(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('member_requests')
        .addColumn('id', id, idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('list_id', 'integer', (c) =>
          c.notNull().references('lists.id').onDelete('cascade'),
        )
        // 'join' or 'leave'.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('address_key', 'text', (c) => c.notNull())
        // 'confirm': waits for the address; 'moderate': waits for a list moderator.
        .addColumn('state', 'text', (c) => c.notNull())
        // 'web', 'mail' or 'one-click': where it was asked.
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('confirmed', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('member_requests_one')
        .on('member_requests')
        .columns(['list_id', 'kind', 'address_key'])
        .unique()
        .execute();
      await db.schema
        .createIndex('member_requests_account')
        .on('member_requests')
        .columns(['account_id', 'state', 'id'])
        .execute();
      await db.schema
        .createIndex('member_requests_expiry')
        .on('member_requests')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('mail_tokens')
        .addColumn('id', id, idColumn)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('purpose', 'text', (c) => c.notNull())
        // Null only for a global administrator's token (spec §4.8: no account).
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        // A list's member (confirm, archive) or an administrator (set a password): one of the two.
        .addColumn('list_id', 'integer', (c) => c.references('lists.id').onDelete('cascade'))
        .addColumn('administrator_id', 'integer', (c) =>
          c.references('administrators.id').onDelete('cascade'),
        )
        .addColumn('address_key', 'text', (c) => c.notNull())
        .addColumn('request_id', 'integer', (c) =>
          c.references('member_requests.id').onDelete('cascade'),
        )
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('mail_tokens_expiry')
        .on('mail_tokens')
        .column('expires_at')
        .execute();
      await db.schema
        .createIndex('mail_tokens_request')
        .on('mail_tokens')
        .column('request_id')
        .execute();

      await db.schema
        .createTable('public_throttles')
        .addColumn('throttle_key', 'text', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('public_throttles_pk', ['throttle_key', 'window_start'])
        .execute();

      await db.schema.alterTable('notices').addColumn('reply_to', 'text').execute();
      // A digest is a delivery to one member: its one-click leave and page link name the address.
      await db.schema.alterTable('notices').addColumn('list_id', 'integer').execute();
      await db.schema.alterTable('notices').addColumn('email_id', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('notices').dropColumn('email_id').execute();
      await db.schema.alterTable('notices').dropColumn('list_id').execute();
      await db.schema.alterTable('notices').dropColumn('reply_to').execute();
      await db.schema.dropTable('public_throttles').ifExists().execute();
      await db.schema.dropTable('mail_tokens').ifExists().execute();
      await db.schema.dropTable('member_requests').ifExists().execute();
      await db.schema.dropTable('server_secrets').ifExists().execute();
    },
  };
}
