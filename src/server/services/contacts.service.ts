import { compileUserRegex, type UserRegex } from '../../api/user-regex.ts';
import type { Kysely } from 'kysely';
import { welcomeNewMember } from '../mail/welcome.ts';
import { PAGE_LIMITS } from '../../api/constants.ts';
import type {
  Contact,
  ContactCreate,
  ContactPage,
  ContactQuery,
  ContactUpdate,
} from '../../api/schemas/contact.ts';
import { listLimit, metadataLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/http-error.ts';
import { JsonText } from '../http/json-text.ts';
import { findAccountById, type AccountRow } from '../repositories/accounts.repository.ts';
import { findContactDocument, storeContactDocument } from '../repositories/contact-documents.repository.ts';
import {
  toContact,
  type ContactParts,
  type ContactView,
} from '../repositories/contacts.mapper.ts';
import {
  countContacts,
  deleteContact as deleteContactRow,
  findContactByCcid,
  findContactByRef,
  findContactDocumentsByIds,
  findContactDocumentsPage,
  findContactsPage,
  findContactsWithChildrenByIds,
  findContactWithFieldsById,
  findContactWithFieldsByRef,
  insertContact,
  lockContactRow,
  parseServiceId,
  updateContact as updateContactRow,
  type ContactRow,
  type ContactWithChildren,
  type DocumentPageRow,
} from '../repositories/contacts.repository.ts';
import {
  findContactIdsPage,
  listNamesOfAccount,
  type ContactIdQuery,
} from '../repositories/contact-search.repository.ts';
import {
  findFieldsByAccount,
  writeValues,
  type CustomFieldRow,
} from '../repositories/custom-fields.repository.ts';
import {
  deleteEmailsByIds,
  emailKey,
  findEmailsByAddresses,
  insertEmails,
  updateEmail as updateEmailRow,
} from '../repositories/emails.repository.ts';
import {
  deleteMembershipsByIds,
  findListsByNames,
  insertMemberships,
  listNamesOfContact,
} from '../repositories/memberships.repository.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { fieldKey, isFieldVisible, resolveCustomValues } from './custom-fields.service.ts';
import { searchTerms } from './search-terms.ts';

/** The address book always works within one account (spec §4.8 chooses it before the handler). */
/** Spec §2.1: on a ccid-enabled account the ccid "replaces the service identifier in API calls". */
export function contactRef(
  account: Pick<AccountRow, 'ccid'>,
  contact: { id: number; ccid: string | null },
): number | string {
  return account.ccid === 1 && contact.ccid !== null ? contact.ccid : contact.id;
}

/**
 * Spec §2.6 limit_lists: to a limited key the lists outside its limit do not exist (SECURITY.md 33:
 * every path answers for them as for a missing list, and no answer names one).
 */
export function isListVisible(principal: Principal, name: string): boolean {
  const allowed = listLimit(principal);
  return allowed === null || allowed.has(name);
}

/**
 * Changing or deleting a contact, or its addresses, reaches every list it is on (a new or resumed
 * address gets their mail): a list-limited key may do it only when all of them are its own (§2.6).
 */
export async function assertContactManageable(
  db: Kysely<Database>,
  principal: Principal,
  contactId: number,
): Promise<void> {
  if (listLimit(principal) === null) return;
  const names = await listNamesOfContact(db, contactId);
  // The lists are not named: they are hidden from this key (SECURITY.md 33).
  if (!names.every((name) => isListVisible(principal, name)))
    throw forbidden('This key is limited to some lists (limit_lists): this contact is also on others');
}

/** Spec §2.7 restrict_contact: an address matching none of the account's expressions is refused. */
export function assertAddressesAllowed(
  account: Pick<AccountRow, 'settings'>,
  addresses: readonly string[],
): void {
  const patterns = addressRestrictions(account.settings);
  if (patterns.length === 0) return;
  const refused = addresses.filter((address) => !patterns.some((pattern) => pattern.test(address)));
  if (refused.length > 0) {
    throw badRequest(
      `${refused.join(', ')}: not allowed by the account's address restrictions (restrict_contact)`,
    );
  }
}

function addressRestrictions(settings: string): UserRegex[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(settings);
  } catch {
    return [];
  }
  const sources = (parsed as { restrict_contact?: unknown } | null)?.restrict_contact;
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((source) => {
    if (typeof source !== 'string' || source === '') return [];
    // SECURITY.md 31: RE2, never RegExp. What it cannot run was refused when saved; a pattern
    // stored before that rule existed is skipped as before, rather than failing every write.
    const compiled = compiledRestriction(source);
    return compiled ? [compiled] : [];
  });
}

/**
 * Compiled restrictions by source: every contact write of an account tests the same few patterns,
 * so they are compiled once (bounded: restrictions are few, the map is cleared when it grows).
 */
const compiledRestrictions = new Map<string, UserRegex | null>();

function compiledRestriction(source: string): UserRegex | null {
  let compiled = compiledRestrictions.get(source);
  if (compiled === undefined) {
    try {
      // Addresses compare without regard to case (spec §2.2 keeps one per account in any case).
      compiled = compileUserRegex(source, { ignoreCase: true });
    } catch {
      compiled = null;
    }
    if (compiledRestrictions.size >= 1_000) compiledRestrictions.clear();
    compiledRestrictions.set(source, compiled);
  }
  return compiled;
}

/** An address belongs to one contact of the account; the message says which. */
export async function assertAddressesFree(
  db: Kysely<Database>,
  account: AccountRow,
  addresses: readonly string[],
  exceptEmailId?: number,
): Promise<void> {
  const taken = (await findEmailsByAddresses(db, account.id, addresses)).filter(
    (row) => row.id !== exceptEmailId,
  );
  const first = taken[0];
  if (first) {
    const owner = contactRef(account, { id: first.contact_id, ccid: first.contact_ccid });
    throw badRequest(`${first.email} already belongs to contact ${owner}`);
  }
}

/** A concurrent request took the same address or ccid between our check and our write. */
export function translateUniqueViolation(error: unknown): unknown {
  return isUniqueViolation(error)
    ? conflict('Another request took the same email address or ccid at the same time; try again')
    : error;
}

// --- loading ---------------------------------------------------------------------------------------

function partsOf(loaded: ContactWithChildren): ContactParts {
  return {
    row: loaded.row,
    emails: loaded.emails,
    memberships: loaded.memberships,
    values: new Map(loaded.values.map((value) => [value.field_id, value.value])),
  };
}

function viewFor(
  account: AccountRow,
  principal: Principal,
  fields: readonly CustomFieldRow[],
): ContactView {
  return viewWithin(account, fields, metadataLimit(principal), listLimit(principal));
}

/** The view of spec §2.6's limits: null sees every field, or every list. */
function viewWithin(
  account: AccountRow,
  fields: readonly CustomFieldRow[],
  limit: ReadonlySet<string> | null,
  lists: ReadonlySet<string> | null,
): ContactView {
  return {
    ref: (row) => contactRef(account, row),
    fields: fields
      .filter((field) => isFieldVisible(field, limit))
      .map((field) => ({ field, key: fieldKey(field) })),
    lists,
  };
}

/** Whether the caller sees every field and list: then a contact's stored document is its answer. */
function seesEverything(principal: Principal): boolean {
  return metadataLimit(principal) === null && listLimit(principal) === null;
}

/**
 * The documents of some contacts of one account (migration 0500), rendered from their rows: each
 * contact's answer to a caller who sees everything, as JSON, by service id. A contact that no
 * longer exists is left out.
 */
export async function renderContactDocuments(
  db: Kysely<Database>,
  account: AccountRow,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const rendered = new Map<number, string>();
  if (ids.length === 0) return rendered;
  const view = viewWithin(account, await findFieldsByAccount(db, account.id), null, null);
  for (const contact of await findContactsWithChildrenByIds(db, ids)) {
    rendered.set(contact.row.id, JSON.stringify(toContact(partsOf(contact), view)));
  }
  return rendered;
}

/**
 * Stores the contact's document after a write, within the write's transaction; the triggers of
 * migration 0500 nulled the old one, so a write that skips this is only served more slowly.
 */
export async function refreshContactDocument(
  db: Kysely<Database>,
  account: Pick<AccountRow, 'id'>,
  contactId: number,
): Promise<void> {
  // The account as this transaction reads it: the request's may come from the auth cache and
  // predate a ccid change, and the ccid setting names the contact in `contact`.
  const current = await findAccountById(db, account.id);
  const document = current && (await renderContactDocuments(db, current, [contactId])).get(contactId);
  if (document) await storeContactDocument(db, contactId, document);
}

async function present(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  loaded: readonly ContactWithChildren[],
  knownFields?: CustomFieldRow[],
): Promise<Contact[]> {
  const fields = knownFields ?? (await findFieldsByAccount(db, account.id));
  const view = viewFor(account, principal, fields);
  return loaded.map((contact) => toContact(partsOf(contact), view));
}

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

// --- reads ---------------------------------------------------------------------------------------

export async function getContact(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  ref: string,
): Promise<Contact | JsonText> {
  if (seesEverything(principal)) {
    const document = await findContactDocument(db, account, ref);
    if (document !== null) return new JsonText(document);
  }
  const loaded = await findContactWithFieldsByRef(db, account, ref);
  if (!loaded) throw notFound('Contact');
  return toContact(partsOf(loaded.contact), viewFor(account, principal, loaded.fields));
}

/**
 * Unfiltered pages up to here are read on the request's own connection (an indexed range of the
 * account's contacts); deeper ones skip their offset on a reader thread (db/heavy-reader.ts).
 */
const SHALLOW_OFFSET = 10_000;

/** Spec §4.1 get many: `count` over every page, `page` (from 1), `data` in service-id order. */
export async function listContacts(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  query: ContactQuery,
): Promise<ContactPage | JsonText> {
  const page = query.page ?? 1;
  const limit = query.limit ?? PAGE_LIMITS.contacts.default;
  const offset = (page - 1) * limit;
  const ids: ContactIdQuery = {
    accountId: account.id,
    terms: [],
    termLists: [],
    orphans: query.orphans === true,
    limit,
    offset,
  };
  if (query.id !== undefined) {
    const id = parseServiceId(query.id);
    // Text that cannot be a service identifier names no contact.
    if (id === null) return { count: 0, page, data: [] };
    ids.id = id;
  }
  if (query.email !== undefined) ids.emailKey = emailKey(query.email);
  if (query.list !== undefined) {
    // The `list` extension: a limit_lists key sees the members of its own lists only (spec §2.6).
    const allowed = listLimit(principal);
    if (allowed && !allowed.has(query.list))
      throw forbidden(`This key is limited to other lists than ${query.list} (limit_lists)`);
    const [list] = await findListsByNames(db, account.id, [query.list]);
    if (!list) throw notFound('List');
    ids.listId = list.id;
  }
  let fields: CustomFieldRow[] | undefined;
  if (query.search !== undefined) {
    ids.terms = searchTerms(query.search);
    if (ids.terms.length > 0) {
      ids.termLists = await listsMatching(db, account.id, listLimit(principal), ids.terms);
      const limitFields = metadataLimit(principal);
      if (limitFields !== null) {
        fields = await findFieldsByAccount(db, account.id);
        const visible = fields.filter((field) => isFieldVisible(field, limitFields));
        // spec §2.6 limit_metadata: values the key cannot see must not find contacts either.
        if (visible.length < fields.length) ids.searchFieldIds = visible.map((field) => field.id);
      }
    }
  }
  const filtered =
    ids.terms.length > 0 || ids.id !== undefined || ids.emailKey !== undefined || ids.listId !== undefined || ids.orphans;
  // Past any plausible end (and past what an SQL offset holds): nothing to load but the count.
  if (!Number.isSafeInteger(offset)) {
    const count = filtered
      ? (await findContactIdsPage(db, { ...ids, limit: 0, offset: 0 })).count
      : await countContacts(db, account.id);
    return { count, page, data: [] };
  }
  if (!filtered && offset < SHALLOW_OFFSET) {
    if (seesEverything(principal)) {
      const rows = await findContactDocumentsPage(db, account.id, limit, offset);
      return documentsPage(db, account, rows, await countOfPage(db, account.id, rows.length, { limit, offset }), page);
    }
    const rows = await findContactsPage(db, account.id, limit, offset);
    const count = await countOfPage(db, account.id, rows.length, { limit, offset });
    return { count, page, data: rows.length === 0 ? [] : await present(db, account, principal, rows) };
  }
  const found = await findContactIdsPage(db, ids);
  if (seesEverything(principal)) {
    const rows = await findContactDocumentsByIds(db, account.id, found.ids);
    return documentsPage(db, account, rows, found.count, page);
  }
  const rows = await findContactsWithChildrenByIds(db, found.ids);
  return {
    count: found.count,
    page,
    data: rows.length === 0 ? [] : await present(db, account, principal, rows, fields),
  };
}

/** For each term, the lists the caller sees whose names hold it: spec §4.1 searches every property. */
async function listsMatching(
  db: Kysely<Database>,
  accountId: number,
  visible: ReadonlySet<string> | null,
  terms: readonly string[],
): Promise<number[][]> {
  const lists = (await listNamesOfAccount(db, accountId)).filter((list) => visible === null || visible.has(list.name));
  return terms.map((term) => lists.filter((list) => list.name.toLowerCase().includes(term)).map((list) => list.id));
}

/** A partial (or empty first) page ends the address book, so it gives the count without a read. */
async function countOfPage(
  db: Kysely<Database>,
  accountId: number,
  rows: number,
  { limit, offset }: { limit: number; offset: number },
): Promise<number> {
  const ended = rows < limit && (rows > 0 || offset === 0);
  return ended ? offset + rows : countContacts(db, accountId);
}

/**
 * A page for a caller who sees everything, from the stored documents (migration 0500); the few
 * not rendered yet are rendered from their rows. A contact deleted between the two reads is left
 * out, as it would be a moment later.
 */
async function documentsPage(
  db: Kysely<Database>,
  account: AccountRow,
  rows: readonly DocumentPageRow[],
  count: number,
  page: number,
): Promise<JsonText> {
  const missing = rows.filter((row) => row.document === null).map((row) => row.id);
  const rendered = await renderContactDocuments(db, account, missing);
  const documents: string[] = [];
  for (const row of rows) {
    const document = row.document ?? rendered.get(row.id);
    if (document !== undefined) documents.push(document);
  }
  return new JsonText(`{"count":${count},"page":${page},"data":[${documents.join(',')}]}`, documents.length);
}

// --- writes --------------------------------------------------------------------------------------

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

function uniqueOrThrow(
  values: readonly string[],
  field: string,
  key: (value: string) => string = (v) => v,
): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(key(value))) throw badRequest(`${field}: ${value} is given twice`);
    seen.add(key(value));
  }
  return [...values];
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

async function createNewContact(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  input: NewContact,
): Promise<Contact> {
  if (account.ccid === 1 && input.ccid === null) {
    // Spec §2.1.
    throw badRequest(
      'ccid: is required on this account: the ccid identifies its contacts',
    );
  }
  // spec §4.1 rule 2 and §7: creating a contact whose custom ID already exists is a conflict.
  if (input.ccid !== null && (await findContactByCcid(db, account.id, input.ccid))) {
    throw conflict(`A contact with ccid ${input.ccid} already exists`);
  }
  const addresses = uniqueOrThrow(input.emails, 'emails', emailKey);
  assertAddressesAllowed(account, addresses);
  await assertAddressesFree(db, account, addresses);

  const listNames = uniqueOrThrow(input.lists, 'lists');
  const found = new Map(
    (await findListsByNames(db, account.id, listNames)).map((list) => [list.name, list.id]),
  );
  // A list hidden from a list-limited key is as unknown as a missing one (spec §2.6, SECURITY.md 33).
  const unknownLists = listNames.filter((name) => !found.has(name) || !isListVisible(principal, name));
  if (unknownLists.length > 0)
    throw badRequest(
      `Unknown list${unknownLists.length > 1 ? 's' : ''}: ${unknownLists.join(', ')}`,
    );

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
      created: new Date().toISOString(),
    });
    await insertEmails(
      db,
      addresses.map((email) => ({
        account_id: account.id,
        contact_id: row.id,
        email,
        email_key: emailKey(email),
      })),
    );
    await insertMemberships(
      db,
      // In the order the request names them, so the contact's `lists` reads back the same way.
      listNames.map((name) => ({
        account_id: account.id,
        contact_id: row.id,
        list_id: found.get(name) as number,
        digest: null,
      })),
    );
    await welcomeNewMember(db, account, row.id, listNames.map((name) => found.get(name) as number));
    await writeValues(db, row.id, values);
    const [contact] = await present(db, account, principal, [await reload(db, account.id, row.id)], fields);
    await refreshContactDocument(db, account, row.id);
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
  ignored: string[] = [],
): Promise<Contact> {
  return createNewContact(db, account, principal, {
    ccid: body.ccid ?? null,
    firstname: body.firstname,
    surname: body.surname,
    notes: body.notes,
    emails: body.emails,
    lists: body.lists ?? [],
    custom: customEntries(body),
    ignored,
  });
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
    return createNewContact(db, account, principal, {
      ccid: ref,
      firstname: body.firstname,
      surname: body.surname,
      notes: body.notes,
      emails: body.emails,
      lists: body.lists ?? [],
      custom: customEntries(body),
      ignored,
    });
  }

  await assertContactManageable(db, principal, row.id);
  if (body.emails !== undefined || body.lists !== undefined) {
    // A concurrent DELETE /emails/ must not see the addresses this PUT is replacing (emails.service).
    await lockContactRow(db, row.id);
    const current = await reload(db, account.id, row.id);
    try {
      if (body.emails !== undefined) await replaceAddresses(db, account, current, body.emails);
      if (body.lists !== undefined) await replaceMemberships(db, account, principal, current, body.lists);
    } catch (error) {
      throw translateUniqueViolation(error);
    }
  }
  const patch: Partial<Pick<ContactRow, 'ccid' | 'firstname' | 'surname' | 'notes'>> = {};
  if (body.ccid !== undefined && body.ccid !== row.ccid) {
    if (body.ccid === null && account.ccid === 1) {
      // Spec §2.1.
      throw badRequest(
        'ccid: cannot be removed on this account: it identifies the contact',
      );
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
    await refreshContactDocument(db, account, row.id);
    return toContact(part, viewFor(account, principal, fields));
  } catch (error) {
    throw translateUniqueViolation(error);
  }
}

/**
 * `emails` in a PUT sets the contact's addresses, as repeated `permissions` set an administrator's
 * (spec §4.6): an address that stays (in any case) keeps its id and settings, the others are
 * deleted, new ones are added under the same rules as POST /emails/. The schema keeps at least one.
 */
async function replaceAddresses(
  db: Kysely<Database>,
  account: AccountRow,
  contact: ContactWithChildren,
  requested: readonly string[],
): Promise<void> {
  const wanted = uniqueOrThrow(requested, 'emails', emailKey);
  const current = new Map(contact.emails.map((email) => [emailKey(email.email), email]));
  const wantedKeys = new Set(wanted.map(emailKey));
  const added = wanted.filter((address) => !current.has(emailKey(address)));
  assertAddressesAllowed(account, added);
  await assertAddressesFree(db, account, added);
  await deleteEmailsByIds(
    db,
    account.id,
    contact.emails.filter((email) => !wantedKeys.has(emailKey(email.email))).map((email) => email.id),
  );
  for (const address of wanted) {
    // The same address spelled otherwise (spec §2.2 ignores case) is kept, spelled as sent.
    const kept = current.get(emailKey(address));
    if (kept && kept.email !== address) await updateEmailRow(db, account.id, kept.id, { email: address });
  }
  await insertEmails(
    db,
    added.map((email) => ({
      account_id: account.id,
      contact_id: contact.row.id,
      email,
      email_key: emailKey(email),
    })),
  );
}

/**
 * `lists` in a PUT sets the contact's memberships: one on a list that stays keeps its id and digest,
 * the others are deleted, new ones are added. A list-limited key (spec §2.6) changes only the
 * memberships of its own lists; those it cannot see are not its to keep or remove.
 */
async function replaceMemberships(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  contact: ContactWithChildren,
  requested: readonly string[],
): Promise<void> {
  const wanted = uniqueOrThrow(requested, 'lists');
  const visible = listLimit(principal);
  const current = contact.memberships.filter(
    (membership) => visible === null || visible.has(membership.list_name),
  );
  const currentNames = new Set(current.map((membership) => membership.list_name));
  const wantedNames = new Set(wanted);
  const added = wanted.filter((name) => !currentNames.has(name));
  const found = new Map(
    (await findListsByNames(db, account.id, added)).map((list) => [list.name, list.id]),
  );
  // A list hidden from a list-limited key is as unknown as a missing one (spec §2.6, SECURITY.md 33).
  const unknownLists = added.filter((name) => !found.has(name) || !isListVisible(principal, name));
  if (unknownLists.length > 0) {
    throw badRequest(
      `Unknown list${unknownLists.length > 1 ? 's' : ''}: ${unknownLists.join(', ')}`,
    );
  }
  await deleteMembershipsByIds(
    db,
    account.id,
    current.filter((membership) => !wantedNames.has(membership.list_name)).map((m) => m.id),
  );
  await insertMemberships(
    db,
    added.map((name) => ({
      account_id: account.id,
      contact_id: contact.row.id,
      list_id: found.get(name) as number,
      digest: null,
    })),
  );
  await welcomeNewMember(db, account, contact.row.id, added.map((name) => found.get(name) as number));
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
