import type { Kysely } from 'kysely';
import { PAGE_LIMITS } from '../../api/constants.ts';
import type { Contact, ContactPage, ContactQuery } from '../../api/schemas/contact.ts';
import { listLimit, metadataLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { forbidden, notFound } from '../http/http-error.ts';
import type { JsonText } from '../http/json-text.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { toContact } from '../repositories/contacts.mapper.ts';
import {
  findContactDocumentsByIds,
  findContactDocumentsPage,
} from '../repositories/contact-documents.repository.ts';
import {
  countContacts,
  findContactsPage,
  findContactsWithChildrenByIds,
  findContactWithFieldsByRef,
  parseServiceId,
} from '../repositories/contacts.repository.ts';
import {
  findContactIdsPage,
  listNamesOfAccount,
  type ContactIdQuery,
} from '../repositories/contact-search.repository.ts';
import {
  findFieldsByAccount,
  type CustomFieldRow,
} from '../repositories/custom-fields.repository.ts';
import { emailKey } from '../repositories/emails.repository.ts';
import { findListsByNames } from '../repositories/memberships.repository.ts';
import { documentsPage, storedContactDocument } from './contact-document-read.ts';
import { partsOf, present, seesEverything, viewFor } from './contact-view.ts';
import { isFieldVisible } from './custom-field-keys.ts';
import { searchTerms } from './search-terms.ts';

/*
 * The contact reads of spec §4.1: one contact, and pages of them (filtered, searched). Writes are
 * in contact-writes.service.ts; the stored documents a caller who sees everything is answered
 * from, in contact-document-read.ts.
 */

export async function getContact(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  ref: string,
): Promise<Contact | JsonText> {
  if (seesEverything(principal)) {
    const document = await storedContactDocument(db, account, ref);
    if (document !== null) return document;
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
  meter: CostMeter,
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
  // SECURITY.md 30: the page's most, before it is read: its limit, or the contacts past its offset
  // (a kept count, one row) if fewer. An id or an address names one contact, which the one
  // object every request reserves covers.
  const contacts = await countContacts(db, account.id);
  if (ids.id === undefined && ids.emailKey === undefined)
    await meter.reserveUpTo(Math.min(limit, Math.max(0, contacts - offset)));
  if (!filtered && offset < SHALLOW_OFFSET) {
    if (seesEverything(principal)) {
      const rows = await findContactDocumentsPage(db, account.id, limit, offset);
      return documentsPage(db, account, rows, contacts, page);
    }
    const rows = await findContactsPage(db, account.id, limit, offset);
    return { count: contacts, page, data: rows.length === 0 ? [] : await present(db, account, principal, rows) };
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

