import type { Kysely } from 'kysely';
import { NAME_MAX_LENGTH, NAME_PATTERN } from '../../api/constants.ts';
import { CONTACT_FIELDS } from '../../api/schemas/contact.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict } from '../http/http-error.ts';
import { findFieldsByAccount, insertField } from '../repositories/custom-fields.repository.ts';

/** A custom field as the CLI and the demo see it. */
export interface CustomField {
  id: number;
  name: string;
  identifier: string | null;
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
