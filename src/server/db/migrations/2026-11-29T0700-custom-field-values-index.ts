import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A custom field's values, found by the field (issue 27 item 1): how many contacts have one (the
 * `fields.list` extension) and deleting them a chunk at a time when the field goes, where the
 * primary key (contact_id, field_id) would have every statement read every value of the
 * installation. Neither dialect indexes a foreign key by itself.
 */
export const customFieldValuesIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('contact_values_field')
      .on('contact_values')
      .columns(['field_id', 'contact_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('contact_values_field').ifExists().execute();
  },
};
