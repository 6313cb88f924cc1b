import type { Kysely, Selectable } from 'kysely';
import type { ContactValuesTable, CustomFieldsTable, Database } from '../db/schema.ts';
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
