import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The keys of an administrator, looked up by its id: the `key_expiry` extension of every
 * administrator GET /users/ answers, and the cascade when an administrator is deleted. Neither
 * dialect indexes a foreign key by itself.
 */
export const apiKeysAdministratorIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('api_keys_administrator')
      .on('api_keys')
      .columns(['administrator_id', 'expires_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('api_keys_administrator').ifExists().execute();
  },
};
