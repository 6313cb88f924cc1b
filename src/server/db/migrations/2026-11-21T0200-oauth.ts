import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';
import { idColumn as idColumn_ } from './id-column.ts';

/**
 * The OAuth 2.0 authorization server (spec §4.9, §5.2; SECURITY.md 1–8). Everything lives here, not
 * in process memory, so several processes can share one PostgreSQL. Secrets (client secrets, session
 * cookies, codes, tokens) are stored as SHA-256 hashes; see db/schema.ts for each column.
 */
export function oauth(dialect: DialectName): Migration {
  const { type: id, build: idColumn } = idColumn_(dialect);

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oauth_clients')
        .addColumn('id', id, idColumn)
        .addColumn('client_id', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text')
        .addColumn('first_party', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('oauth_redirect_uris')
        .addColumn('id', id, idColumn)
        .addColumn('client_id', 'integer', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addUniqueConstraint('oauth_redirect_uris_pair', ['client_id', 'redirect_uri'])
        .execute();
      // CORS on the token endpoint asks "is this origin a registered client's?" (SECURITY.md 7).
      await db.schema.createIndex('oauth_redirect_uris_origin').on('oauth_redirect_uris').column('origin').execute();

      await db.schema
        .createTable('oauth_sessions')
        .addColumn('id', id, idColumn)
        .addColumn('session_hash', 'text', (c) => c.notNull().unique())
        .addColumn('administrator_id', 'integer', (c) => c.references('administrators.id').onDelete('cascade'))
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      // Expired sessions are deleted as new sign-in forms are served.
      await db.schema.createIndex('oauth_sessions_expires').on('oauth_sessions').column('expires_at').execute();

      await db.schema
        .createTable('oauth_login_attempts')
        .addColumn('throttle_key', 'text', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_login_attempts_pk', ['throttle_key', 'window_start'])
        .execute();

      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', id, idColumn)
        .addColumn('client_id', 'integer', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
        .addColumn('administrator_id', 'integer', (c) => c.notNull().references('administrators.id').onDelete('cascade'))
        .addColumn('session_id', 'integer', (c) => c.references('oauth_sessions.id').onDelete('set null'))
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_grants_session').on('oauth_grants').column('session_id').execute();
      await db.schema.createIndex('oauth_grants_administrator').on('oauth_grants').column('administrator_id').execute();
      await db.schema.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();
      await db.schema.createIndex('oauth_grants_expires').on('oauth_grants').column('expires_at').execute();

      await db.schema
        .createTable('oauth_codes')
        .addColumn('id', id, idColumn)
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text')
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_codes_grant').on('oauth_codes').column('grant_id').execute();
      await db.schema.createIndex('oauth_codes_expires').on('oauth_codes').column('expires_at').execute();

      await db.schema
        .createTable('oauth_access_tokens')
        .addColumn('id', id, idColumn)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_access_tokens_grant').on('oauth_access_tokens').column('grant_id').execute();
      await db.schema.createIndex('oauth_access_tokens_expires').on('oauth_access_tokens').column('expires_at').execute();

      await db.schema
        .createTable('oauth_refresh_tokens')
        .addColumn('id', id, idColumn)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('created', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').column('grant_id').execute();
    },

    async down(db: Kysely<unknown>) {
      for (const table of [
        'oauth_refresh_tokens', 'oauth_access_tokens', 'oauth_codes', 'oauth_grants', 'oauth_login_attempts',
        'oauth_sessions', 'oauth_redirect_uris', 'oauth_clients',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
