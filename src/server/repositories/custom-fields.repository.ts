import { sql, type Kysely, type Selectable } from 'kysely';
import { heavyRows } from '../db/heavy-reader.ts';
import type { ContactValuesTable, CustomFieldsTable, Database } from '../db/schema.ts';
import type { AdministratorRow } from './administrators.repository.ts';
import { noteChangedContacts } from './changed-contacts.ts';

export type CustomFieldRow = Selectable<CustomFieldsTable>;
export type ContactValueRow = Selectable<ContactValuesTable>;

/** Every custom field the account defines (spec §2.1 `<custom field>`), oldest first. */
export function findFieldsByAccount(
  db: Kysely<Database>,
  accountId: number,
): Promise<CustomFieldRow[]> {
  return db
    .selectFrom('custom_fields')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export function findFieldById(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<CustomFieldRow | undefined> {
  return db
    .selectFrom('custom_fields')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * How many contacts have a value for each of the fields (absent: none). SECURITY.md 29: a field
 * of a million-contact account may have a million values, so this is a heavy read over the
 * contact_values_field index (migration 2026-11-29T0700).
 */
export async function countFieldValues(
  db: Kysely<Database>,
  accountId: number,
  fieldIds: readonly number[],
): Promise<Map<number, number>> {
  if (fieldIds.length === 0) return new Map();
  const rows = await heavyRows(
    db,
    accountId,
    sql`select field_id, count(*) from contact_values where field_id in (${sql.join(fieldIds)})
      group by field_id`,
  );
  return new Map(rows.map(([field, count]) => [Number(field), Number(count)]));
}

export function insertField(
  db: Kysely<Database>,
  values: { account_id: number; name: string; identifier: string | null },
): Promise<CustomFieldRow> {
  return db.insertInto('custom_fields').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Sets a contact's values: an empty value removes the field from the contact. */
export async function writeValues(
  db: Kysely<Database>,
  contactId: number,
  values: ReadonlyMap<number, string>,
): Promise<void> {
  if (values.size > 0) noteChangedContacts(db, [contactId]);
  const cleared = [...values].filter(([, value]) => value === '').map(([fieldId]) => fieldId);
  const set = [...values]
    .filter(([, value]) => value !== '')
    .map(([field_id, value]) => ({ contact_id: contactId, field_id, value }));
  if (cleared.length > 0) {
    await db
      .deleteFrom('contact_values')
      .where('contact_id', '=', contactId)
      .where('field_id', 'in', cleared)
      .execute();
  }
  if (set.length > 0) {
    await db
      .insertInto('contact_values')
      .values(set)
      .onConflict((oc) =>
        oc
          .columns(['contact_id', 'field_id'])
          .doUpdateSet({ value: (eb) => eb.ref('excluded.value') }),
      )
      .execute();
  }
}

export async function updateFieldRow(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  values: { name: string; identifier: string | null },
): Promise<CustomFieldRow> {
  return db
    .updateTable('custom_fields')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The field and the values still left (a few at most after chunked-deletes.repository.ts). */
export async function deleteFieldRow(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('custom_fields')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** What of the account's administrators a field's limit_metadata entries concern (spec §2.6). */
export type MetadataLimitRow = Pick<
  AdministratorRow,
  'id' | 'username' | 'description' | 'permissions' | 'limit_metadata'
>;

/** The account's administrators with their limit_metadata, for following a renamed field. */
export function selectMetadataLimits(
  db: Kysely<Database>,
  accountId: number,
): Promise<MetadataLimitRow[]> {
  return db
    .selectFrom('administrators')
    .select(['id', 'username', 'description', 'permissions', 'limit_metadata'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export async function setMetadataLimit(
  db: Kysely<Database>,
  id: number,
  limitMetadata: string,
): Promise<void> {
  await db
    .updateTable('administrators')
    .set({ limit_metadata: limitMetadata })
    .where('id', '=', id)
    .execute();
}
