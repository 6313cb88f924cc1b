import { forbidden, badRequest } from '../http/http-error.ts';
import type { CustomFieldRow } from '../repositories/custom-fields.repository.ts';

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
