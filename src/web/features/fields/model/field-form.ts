import * as z from 'zod/mini';
import {
  FieldIdentifier,
  FieldName,
  type CustomField,
  type FieldCreate,
  type FieldUpdate,
} from '../../../../api/schemas/field.ts';

/**
 * The field form's values: the contract's own rules for a name and an identifier (the form and
 * the server agree), the identifier as typed ('' for none, sent as null).
 */
export const FieldFormValues = z.object({
  name: FieldName,
  identifier: z.union([z.literal(''), FieldIdentifier]),
});
export type FieldFormValues = z.infer<typeof FieldFormValues>;

/** The fields of the form a server's refusal may name (`name: …`, `identifier: …`). */
export const FIELD_FORM_FIELDS = ['name', 'identifier'] as const;

export function formValuesOf(field: CustomField | null): FieldFormValues {
  return { name: field?.name ?? '', identifier: field?.identifier ?? '' };
}

/** A new field: no identifier is null (the name is then its key, spec §2.1). */
export function toCreateInput(values: FieldFormValues): FieldCreate {
  return { name: values.name, identifier: values.identifier === '' ? null : values.identifier };
}

/** A rename sends only what changed (spec §1 rule 6); an emptied identifier is null. */
export function toUpdateInput(field: CustomField, values: FieldFormValues): FieldUpdate {
  const input: FieldUpdate = {};
  if (values.name !== field.name) input.name = values.name;
  const identifier = values.identifier === '' ? null : values.identifier;
  if (identifier !== field.identifier) input.identifier = identifier;
  return input;
}

/**
 * The key a field being typed will have, said before it is saved (a saved field's is `key`, from
 * the server): its identifier, else its name (spec §2.1, §2.6).
 */
export function keyOf(values: FieldFormValues): string {
  return values.identifier === '' ? values.name : values.identifier;
}

/** How the page names an administrator: a person's username, a key's description. */
export function administratorLabel(administrator: {
  username: string | null;
  description: string | null;
  id: unknown;
}): string {
  return (
    administrator.username ??
    administrator.description ??
    `Administrator ${String(administrator.id)}`
  );
}
