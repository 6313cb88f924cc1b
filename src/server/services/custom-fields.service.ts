import type { Kysely } from 'kysely';
import { ARRAY_MAX_ITEMS, NAME_MAX_LENGTH, NAME_PATTERN } from '../../api/constants.ts';
import { CONTACT_FIELDS } from '../../api/schemas/contact.ts';
import type {
  CustomField as FieldObject,
  FieldAdministrator,
  FieldCreate,
  FieldDeleted,
  FieldUpdate,
} from '../../api/schemas/field.ts';
import { FIELD_NAME_MAX_LENGTH } from '../../api/schemas/field.ts';
import { can, listLimit, metadataLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/http-error.ts';
import { lockAdministratorsOf } from '../repositories/administrators.repository.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { deleteFieldValues } from '../repositories/chunked-deletes.repository.ts';
import {
  countFieldValues,
  deleteFieldRow,
  findFieldById,
  findFieldsByAccount,
  insertField,
  selectMetadataLimits,
  setMetadataLimit,
  updateFieldRow,
  type CustomFieldRow,
  type MetadataLimitRow,
} from '../repositories/custom-fields.repository.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { fieldKey, isFieldVisible } from './custom-field-keys.ts';
import { pathId } from './path-id.ts';

/** A custom field as the CLI and the demo see it. */
export interface CustomField {
  id: number;
  name: string;
  identifier: string | null;
}

const RESERVED = new Set<string>([...CONTACT_FIELDS, 'account_id']);

/**
 * Every contact shows every field of its account (spec §2.1), so their number is bounded as
 * limit_metadata, which may name them all, is (SECURITY.md 21).
 */
const FIELDS_MAX = ARRAY_MAX_ITEMS;

/**
 * Defines a custom field of an account (the CLI's `field create`, the demo, and the `fields.create`
 * extension).
 */
export async function createCustomField(
  db: Kysely<Database>,
  input: { accountId: number; name: string; identifier?: string | null },
): Promise<CustomField> {
  const keys = fieldKeys(input.name.trim(), input.identifier);
  const fields = await findFieldsByAccount(db, input.accountId);
  if (fields.length >= FIELDS_MAX)
    throw badRequest(`name: an account has at most ${FIELDS_MAX} custom fields`);
  assertKeysFree(keys, fields);
  try {
    const row = await insertField(db, { account_id: input.accountId, ...keys });
    return { id: row.id, name: row.name, identifier: row.identifier };
  } catch (error) {
    // Another request took the name meanwhile.
    if (isUniqueViolation(error)) throw keyTaken(keys.name);
    throw error;
  }
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
 * The `fields.list` extension: the fields the caller sees (a limit_metadata key only its own, spec
 * §2.6), each with how many contacts have a value and, for a caller who may read administrators
 * (spec §4.6: superadmin), the administrators limited to it. One object a field (spec §8 rule 1),
 * reserved before the values are counted (SECURITY.md 30).
 */
export async function listFields(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  meter: CostMeter,
): Promise<FieldObject[]> {
  const limit = metadataLimit(principal);
  const fields = (await findFieldsByAccount(db, account.id)).filter((field) =>
    isFieldVisible(field, limit),
  );
  await meter.reserveUpTo(fields.length);
  const counts = await countFieldValues(
    db,
    account.id,
    fields.map((field) => field.id),
  );
  const limits = can(principal, 'superadmin') ? await selectMetadataLimits(db, account.id) : null;
  return fields.map((field) => present(field, counts.get(field.id) ?? 0, limits));
}

/**
 * The `fields.create` extension. A key limited to some fields (limit_metadata) defines none: the
 * new field would be one it may not see.
 */
export async function defineField(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  input: FieldCreate,
): Promise<FieldObject> {
  assertMayDefine(principal);
  if (metadataLimit(principal) !== null)
    throw forbidden(
      'This key is limited to some custom fields (limit_metadata): it cannot define new ones',
    );
  const created = await createCustomField(db, {
    accountId: account.id,
    name: input.name,
    identifier: input.identifier,
  });
  const row = await findFieldById(db, account.id, created.id);
  if (!row) throw new Error('a field just created is gone');
  // An administrator may already name it in limit_metadata (spec §2.6 allows any name there).
  const limits = can(principal, 'superadmin') ? await selectMetadataLimits(db, account.id) : null;
  return present(row, 0, limits);
}

/**
 * The `fields.update` extension: a new name, identifier, or both. Contacts' values stay (they
 * belong to the field, not to its key); administrators' limit_metadata entries that named it name
 * its new key, in the same transaction, so nobody loses or gains a field by a rename. Only the
 * account's own administrators: a global administrator's limit_metadata names fields of every
 * account it works on, and one account's rename is no reason to change it.
 */
export async function renameField(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idText: string,
  input: FieldUpdate,
): Promise<FieldObject> {
  assertMayDefine(principal);
  const row = await visibleField(db, account.id, principal, idText);
  const identifier = input.identifier === undefined ? row.identifier : input.identifier;
  const keys = fieldKeys(input.name ?? row.name, identifier);
  const fields = await findFieldsByAccount(db, account.id);
  assertKeysFree(
    keys,
    fields.filter((field) => field.id !== row.id),
  );
  const counts = await countFieldValues(db, account.id, [row.id]);
  const mayReadAdministrators = can(principal, 'superadmin');
  if (keys.name === row.name && keys.identifier === row.identifier) {
    const limits = mayReadAdministrators ? await selectMetadataLimits(db, account.id) : null;
    return present(row, counts.get(row.id) ?? 0, limits);
  }
  let renamed: CustomFieldRow;
  try {
    renamed = await updateFieldRow(db, account.id, row.id, keys);
  } catch (error) {
    if (isUniqueViolation(error)) throw keyTaken(keys.name);
    throw error;
  }
  await lockAdministratorsOf(db, account.id);
  const limits = await selectMetadataLimits(db, account.id);
  for (const administrator of limits) {
    const entries = entriesOf(administrator);
    if (!entries.some((entry) => names(row, entry))) continue;
    const followed = [
      ...new Set(entries.map((entry) => (names(row, entry) ? fieldKey(renamed) : entry))),
    ];
    administrator.limit_metadata = JSON.stringify(followed);
    await setMetadataLimit(db, administrator.id, administrator.limit_metadata);
  }
  return present(renamed, counts.get(row.id) ?? 0, mayReadAdministrators ? limits : null);
}

/**
 * The `fields.delete` extension: the field and its values go. The values may be a million, so
 * they go a chunk at a time first (SECURITY.md 29; a delete cut short leaves the field with fewer
 * values, and sending it again finishes it), then the field in a short transaction that also
 * takes it out of every limit_metadata of the account: an administrator limited to it loses it
 * (limited to it alone, they then see no field at all: never more than before), and a field
 * defined later under the same name is not theirs by an old entry.
 */
export async function deleteField(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idText: string,
  commit: UnitOfWork,
): Promise<FieldDeleted> {
  assertMayDefine(principal);
  const found = await visibleField(db, account.id, principal, idText);
  const deleted = await deleteFieldValues(db, found.id);
  // The last step is the write's own transaction (`commit`): its audit entry is written in it.
  const gone = await commit(async (trx) => {
    await lockAdministratorsOf(trx, account.id);
    const row = await findFieldById(trx, account.id, found.id);
    if (!row) return null;
    // What a concurrent write added since the chunks: a few at most, gone with the field.
    const left = (await countFieldValues(trx, account.id, [row.id])).get(row.id) ?? 0;
    const limits = await selectMetadataLimits(trx, account.id);
    const losing = limits.filter((administrator) =>
      entriesOf(administrator).some((entry) => names(row, entry)),
    );
    for (const administrator of losing) {
      const kept = entriesOf(administrator).filter((entry) => !names(row, entry));
      await setMetadataLimit(trx, administrator.id, JSON.stringify(kept));
    }
    await deleteFieldRow(trx, account.id, row.id);
    return { row, left, losing };
  });
  // Deleted meanwhile by another request, which answered for it.
  if (!gone) throw notFound('Custom field');
  const administrators = can(principal, 'superadmin') ? gone.losing : null;
  return {
    success: 1,
    field: present(gone.row, deleted + gone.left, administrators),
  };
}

/** The field as the API shows it; `limits` null: the caller may not read administrators. */
function present(
  field: CustomFieldRow,
  contacts: number,
  limits: readonly MetadataLimitRow[] | null,
): FieldObject {
  const object: FieldObject = {
    id: field.id,
    name: field.name,
    identifier: field.identifier,
    key: fieldKey(field),
    contacts,
  };
  if (limits !== null)
    object.administrators = limits
      .filter((administrator) => entriesOf(administrator).some((entry) => names(field, entry)))
      .map(administratorOf);
  return object;
}

function administratorOf(row: MetadataLimitRow): FieldAdministrator {
  const permissions = JSON.parse(row.permissions) as string[];
  return {
    id: row.id,
    username: row.username,
    description: row.username === null ? row.description : null,
    limited: permissions.includes('limit_metadata'),
  };
}

function entriesOf(row: Pick<MetadataLimitRow, 'limit_metadata'>): string[] {
  return JSON.parse(row.limit_metadata) as string[];
}

/** Spec §2.6: an entry names a field by its identifier if defined, otherwise its name (either). */
function names(field: CustomFieldRow, entry: string): boolean {
  return isFieldVisible(field, new Set([entry]));
}

/**
 * SECURITY.md 16 beyond the permission (general_settings): a field's values are on contacts of
 * every list, so a key limited to some lists (limit_lists) neither defines, renames nor deletes
 * one, as it changes no contact that is on other lists (services/contact-access.ts).
 */
function assertMayDefine(principal: Principal): void {
  if (listLimit(principal) !== null)
    throw forbidden(
      'This key is limited to some lists (limit_lists): custom fields are on contacts of every list',
    );
}

/** A field of the account the caller sees; to a limit_metadata key the others do not exist. */
async function visibleField(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  idText: string,
): Promise<CustomFieldRow> {
  const id = pathId(idText);
  const row = id === null ? undefined : await findFieldById(db, accountId, id);
  if (!row || !isFieldVisible(row, metadataLimit(principal))) throw notFound('Custom field');
  return row;
}

/**
 * A field's name and identifier, checked: names and identifiers become keys of the contact object
 * (spec §2.1), so they must not shadow a standard field; an identifier follows the list-name rules.
 */
function fieldKeys(
  name: string,
  identifier: string | null | undefined,
): { name: string; identifier: string | null } {
  const id = identifier == null || identifier === '' ? null : identifier;
  if (name === '' || name.length > FIELD_NAME_MAX_LENGTH)
    throw badRequest(`name: needs 1 to ${FIELD_NAME_MAX_LENGTH} characters`);
  if (id !== null && (id.length > NAME_MAX_LENGTH || !NAME_PATTERN.test(id)))
    throw badRequest(
      `identifier: at most ${NAME_MAX_LENGTH} letters, digits, underscores, periods and hyphens`,
    );
  for (const [field, key] of [
    ['name', name],
    ['identifier', id],
  ] as const) {
    // Spec §2.1's standard fields.
    if (key !== null && RESERVED.has(key))
      throw badRequest(`${field}: cannot be ${key}, a standard contact field`);
  }
  return { name, identifier: id };
}

/** No key may name two fields: a contact's value and a limit_metadata entry would be ambiguous. */
function assertKeysFree(
  keys: { name: string; identifier: string | null },
  others: readonly CustomFieldRow[],
): void {
  const taken = new Set(others.flatMap((f) => [f.name, f.identifier]));
  if (taken.has(keys.name)) throw keyTaken(keys.name, 'name');
  if (keys.identifier !== null && taken.has(keys.identifier))
    throw keyTaken(keys.identifier, 'identifier');
}

function keyTaken(key: string, field: 'name' | 'identifier' = 'name') {
  return conflict(`${field}: a custom field named or identified ${key} already exists`);
}
