import type { Kysely } from 'kysely';
import { NAME_MAX_LENGTH, NAME_PATTERN } from '../../api/constants.ts';
import { CONTACT_FIELDS } from '../../api/schemas/contact.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, forbidden } from '../http/http-error.ts';
import {
  findFieldsByAccount,
  insertField,
  type CustomFieldRow,
} from '../repositories/custom-fields.repository.ts';

/** A custom field as the CLI and the demo see it. */
export interface CustomField {
  id: number;
  name: string;
  identifier: string | null;
}

/** Spec §2.1: a custom field is addressed by its identifier if defined, otherwise by its name. */
export function fieldKey(field: CustomFieldRow): string {
  return field.identifier ?? field.name;
}

/**
 * Spec §2.6 limit_metadata: the list "uses the metadatum identifier if defined, otherwise the full
 * name"; the name is accepted too, as it names the same field. `limit` null: every field.
 */
export function isFieldVisible(field: CustomFieldRow, limit: ReadonlySet<string> | null): boolean {
  return limit === null || limit.has(fieldKey(field)) || limit.has(field.name);
}

const RESERVED = new Set<string>([...CONTACT_FIELDS, 'account_id']);
const FIELD_NAME_MAX_LENGTH = 255;

/**
 * Defines a custom field of an account (the CLI's `field create` and the demo). Names and
 * identifiers become keys of the contact object, so they must not shadow a standard field, and no
 * key may name two fields.
 */
export async function createCustomField(
  db: Kysely<Database>,
  input: { accountId: number; name: string; identifier?: string | null },
): Promise<CustomField> {
  const name = input.name.trim();
  const identifier = input.identifier == null || input.identifier === '' ? null : input.identifier;
  if (name === '' || name.length > FIELD_NAME_MAX_LENGTH) {
    throw badRequest(`name: needs 1 to ${FIELD_NAME_MAX_LENGTH} characters`);
  }
  if (
    identifier !== null &&
    (identifier.length > NAME_MAX_LENGTH || !NAME_PATTERN.test(identifier))
  ) {
    throw badRequest(
      `identifier: at most ${NAME_MAX_LENGTH} letters, digits, underscores, periods and hyphens`,
    );
  }
  for (const key of [name, identifier]) {
    if (key !== null && RESERVED.has(key))
      // Spec §2.1's standard fields.
      throw badRequest(`${key} is a standard contact field`);
  }
  const taken = new Set(
    (await findFieldsByAccount(db, input.accountId)).flatMap((f) => [f.name, f.identifier]),
  );
  for (const key of [name, identifier]) {
    if (key !== null && taken.has(key))
      throw conflict(`A custom field named or identified ${key} already exists`);
  }
  const row = await insertField(db, { account_id: input.accountId, name, identifier });
  return { id: row.id, name: row.name, identifier: row.identifier };
}

export async function listCustomFields(
  db: Kysely<Database>,
  accountId: number,
): Promise<CustomField[]> {
  return (await findFieldsByAccount(db, accountId)).map((f) => ({
    id: f.id,
    name: f.name,
    identifier: f.identifier,
  }));
}

/**
 * Turns the custom keys of a contact write into field id → value. Keys may use a field's identifier
 * or its name (spec §2.1); a key that names no field of the account is no contact field at all, so
 * it is left out and added to `ignored` (SECURITY.md 17: never stored, named in the answer); one
 * outside the key's limit_metadata is forbidden (spec §2.6).
 */
export function resolveCustomValues(
  fields: readonly CustomFieldRow[],
  extras: ReadonlyArray<readonly [string, string]>,
  limit: ReadonlySet<string> | null,
  ignored: string[],
): Map<number, string> {
  const byIdentifier = new Map(
    fields.filter((f) => f.identifier !== null).map((f) => [f.identifier, f]),
  );
  const byName = new Map(fields.map((f) => [f.name, f]));

  const values = new Map<number, string>();
  for (const [key, value] of extras) {
    const field = byIdentifier.get(key) ?? byName.get(key);
    if (!field) {
      ignored.push(key);
      continue;
    }
    if (!isFieldVisible(field, limit))
      throw forbidden(`This key is limited to other custom fields: it cannot write ${key}`);
    if (values.has(field.id))
      throw badRequest(`${key}: the field is given twice, by its name and by its identifier`);
    values.set(field.id, value);
  }
  return values;
}
