import type { Kysely } from 'kysely';
import type { Contact, ContactCreate, ContactUpdate } from '../../api/schemas/contact.ts';
import { metadataLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/http-error.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { toContact } from '../repositories/contacts.mapper.ts';
import {
  deleteContact as deleteContactRow,
  findContactByCcid,
  findContactByRef,
  findContactWithFieldsById,
  insertContact,
  lockContactRow,
  updateContact as updateContactRow,
  type ContactRow,
  type ContactWithChildren,
} from '../repositories/contacts.repository.ts';
import { findFieldsByAccount, writeValues } from '../repositories/custom-fields.repository.ts';
import { emailKey } from '../repositories/emails.repository.ts';
import { assertContactManageable } from './contact-access.ts';
import { assertAddressesAllowed, assertAddressesFree } from './contact-address-rules.ts';
import {
  addAddresses,
  joinLists,
  replaceAddresses,
  replaceMemberships,
  uniqueOrThrow,
  visibleListIds,
} from './contact-arrays.ts';
import { partsOf, present, viewFor } from './contact-view.ts';
import { resolveCustomValues } from './custom-field-keys.ts';
import { translateUniqueViolation } from './write-conflict.ts';

/*
 * The contact writes of spec §4.1: create, update (emails and lists included), delete. Each runs in
 * the request's write transaction, whose unit of work stores the changed contact's document
 * (db/unit-of-work.ts, contact-document-store.ts).
 */

/** A contact this request has just written, read back with its children. */
async function reload(
  db: Kysely<Database>,
  accountId: number,
  contactId: number,
): Promise<ContactWithChildren> {
  const loaded = await findContactWithFieldsById(db, accountId, contactId);
  if (!loaded) throw new Error(`contact ${contactId} vanished within its own transaction`);
  return loaded.contact;
}

const STANDARD_INPUT_FIELDS = new Set([
  'id',
  'created',
  'ccid',
  'firstname',
  'surname',
  'notes',
  'emails',
  'lists',
]);

/** The keys of a contact write that name custom fields (the contract's catch-all, spec §2.1). */
function customEntries(body: Record<string, unknown>): [string, string][] {
  return Object.entries(body).filter(
    (entry): entry is [string, string] =>
      !STANDARD_INPUT_FIELDS.has(entry[0]) && typeof entry[1] === 'string',
  );
}

interface NewContact {
  ccid: string | null;
  firstname?: string | undefined;
  surname?: string | undefined;
  notes?: string | undefined;
  emails: readonly string[];
  lists: readonly string[];
  custom: [string, string][];
  /** Receives the custom keys that name no field of the account (SECURITY.md 17). */
  ignored: string[];
}

/** What a POST creates, or a PUT to a ccid that does not exist yet (spec §4.1 rule 1). */
function newContact(
  body: ContactUpdate & Pick<ContactCreate, 'emails'>,
  ccid: string | null,
  ignored: string[],
): NewContact {
  return {
    ccid,
    firstname: body.firstname,
    surname: body.surname,
    notes: body.notes,
    emails: body.emails,
    lists: body.lists ?? [],
    custom: customEntries(body),
    ignored,
  };
}

async function createNewContact(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  input: NewContact,
  now: Date,
): Promise<Contact> {
  if (account.ccid === 1 && input.ccid === null) {
    // Spec §2.1.
    throw badRequest('ccid: is required on this account: the ccid identifies its contacts');
  }
  // spec §4.1 rule 2 and §7: creating a contact whose custom ID already exists is a conflict.
  if (input.ccid !== null && (await findContactByCcid(db, account.id, input.ccid))) {
    throw conflict(`A contact with ccid ${input.ccid} already exists`);
  }
  const addresses = uniqueOrThrow(input.emails, 'emails', emailKey);
  assertAddressesAllowed(account, addresses);
  await assertAddressesFree(db, account, addresses);

  const listNames = uniqueOrThrow(input.lists, 'lists');
  const listIds = await visibleListIds(db, account, principal, listNames);

  const fields = await findFieldsByAccount(db, account.id);
  const values = resolveCustomValues(fields, input.custom, metadataLimit(principal), input.ignored);

  const names = {
    firstname: input.firstname ?? '',
    surname: input.surname ?? '',
    notes: input.notes ?? '',
  };
  try {
    const row = await insertContact(db, {
      account_id: account.id,
      ccid: input.ccid,
      ...names,
      created: now.toISOString(),
    });
    await addAddresses(db, account, row.id, addresses);
    await joinLists(db, account, row.id, listIds, now);
    await writeValues(db, row.id, values);
    const [contact] = await present(
      db,
      account,
      principal,
      [await reload(db, account.id, row.id)],
      fields,
    );
    return contact as Contact;
  } catch (error) {
    throw translateUniqueViolation(error);
  }
}

/**
 * Spec §4.1 create: at least one address; repeated `lists` make memberships; custom fields by key.
 * Keys that name no custom field of the account are added to `ignored`.
 */
export function createContact(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  body: ContactCreate,
  now: Date,
  ignored: string[] = [],
): Promise<Contact> {
  return createNewContact(db, account, principal, newContact(body, body.ccid ?? null, ignored), now);
}

/**
 * Spec §4.1 update: only the supplied fields change (§1 rule 6), `emails` and `lists` included
 * ("any contact fields"), which set the whole array (replaceAddresses, replaceMemberships). On a
 * ccid-enabled account a PUT to a ccid that does not exist creates that contact (rule 1). Keys that
 * name no custom field of the account are added to `ignored`.
 */
export async function updateContact(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  ref: string,
  body: ContactUpdate,
  now: Date,
  ignored: string[] = [],
): Promise<Contact> {
  const row = await findContactByRef(db, account, ref);
  if (!row) {
    if (account.ccid !== 1) throw notFound('Contact');
    if (body.ccid !== undefined && body.ccid !== ref) {
      throw badRequest(`ccid: differs from the ccid in the path (${ref}), which this PUT creates`);
    }
    if (body.emails === undefined) {
      // Spec §4.1 rule 1.
      throw badRequest(`emails: is required: this PUT creates contact ${ref}`);
    }
    return createNewContact(
      db,
      account,
      principal,
      newContact({ ...body, emails: body.emails }, ref, ignored),
      now,
    );
  }

  await assertContactManageable(db, principal, row.id);
  if (body.emails !== undefined || body.lists !== undefined) {
    // A concurrent DELETE /emails/ must not see the addresses this PUT is replacing (emails.service).
    await lockContactRow(db, row.id);
    const current = await reload(db, account.id, row.id);
    try {
      if (body.emails !== undefined) await replaceAddresses(db, account, current, body.emails);
      if (body.lists !== undefined)
        await replaceMemberships(db, account, principal, current, body.lists, now);
    } catch (error) {
      throw translateUniqueViolation(error);
    }
  }
  const patch: Partial<Pick<ContactRow, 'ccid' | 'firstname' | 'surname' | 'notes'>> = {};
  if (body.ccid !== undefined && body.ccid !== row.ccid) {
    if (body.ccid === null && account.ccid === 1) {
      // Spec §2.1.
      throw badRequest('ccid: cannot be removed on this account: it identifies the contact');
    }
    if (body.ccid !== null && (await findContactByCcid(db, account.id, body.ccid))) {
      throw conflict(`A contact with ccid ${body.ccid} already exists`);
    }
    patch.ccid = body.ccid;
  }
  if (body.firstname !== undefined) patch.firstname = body.firstname;
  if (body.surname !== undefined) patch.surname = body.surname;
  if (body.notes !== undefined) patch.notes = body.notes;

  const custom = customEntries(body);
  const fields = await findFieldsByAccount(db, account.id);
  const values = resolveCustomValues(fields, custom, metadataLimit(principal), ignored);
  try {
    await writeValues(db, row.id, values);
    const loaded = await reload(db, account.id, row.id);
    const part = partsOf({ ...loaded, row: { ...loaded.row, ...patch } });
    await updateContactRow(db, account.id, row.id, patch);
    return toContact(part, viewFor(account, principal, fields));
  } catch (error) {
    throw translateUniqueViolation(error);
  }
}

/** Spec §4.1 delete: the contact's addresses, memberships and custom values go with it. */
export async function deleteContact(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  ref: string,
): Promise<void> {
  const row = await findContactByRef(db, account, ref);
  if (!row) throw notFound('Contact');
  await assertContactManageable(db, principal, row.id);
  await deleteContactRow(db, account.id, row.id);
}
