import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import { byId, jsonArrayOf, parseJsonRows, type JsonRows } from '../db/json-rows.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { ContactsTable, Database } from '../db/schema.ts';
import { noteChangedContacts } from './changed-contacts.ts';
import type { ContactValueRow, CustomFieldRow } from './custom-fields.repository.ts';
import type { EmailRow } from './emails.repository.ts';
import type { MembershipWithListRow } from './memberships.repository.ts';

export type ContactRow = Selectable<ContactsTable>;

/** What a contact answer shows of its addresses, memberships and custom values. */
export type ContactEmailRow = Pick<EmailRow, 'id' | 'email' | 'digest' | 'paused' | 'confirmed' | 'ceid'>;
export type ContactMembershipRow = Pick<MembershipWithListRow, 'id' | 'list_name' | 'digest'>;
export type ContactValue = Pick<ContactValueRow, 'field_id' | 'value'>;

/** A contact row with its child rows, loaded in the same statement. */
export interface ContactWithChildren {
  row: ContactRow;
  emails: ContactEmailRow[];
  memberships: ContactMembershipRow[];
  values: ContactValue[];
}

/** The account's size, kept by triggers (migration 0410) rather than counted. */
export async function countContacts(db: Kysely<Database>, accountId: number): Promise<number> {
  const kept = await db
    .selectFrom('contact_counts')
    .select('contacts')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return kept?.contacts ?? 0;
}

/**
 * Contacts with their children: each child kind is one JSON array per contact, computed by a
 * correlated subquery on that kind's contact_id index. One statement serves a contact or a page
 * of them (no query per kind, none per contact); children come out by id (withChildren).
 */
function selectContactsWithChildren(db: Kysely<Database>) {
  const dialect = dialectOf(db);
  return db
    .selectFrom('contacts')
    .selectAll('contacts')
    .select((eb) => [
      eb
        .selectFrom('emails')
        .select(
          jsonArrayOf<ContactEmailRow>(
            dialect,
            {
              id: 'emails.id',
              email: 'emails.email',
              digest: 'emails.digest',
              paused: 'emails.paused',
              confirmed: 'emails.confirmed',
              ceid: 'emails.ceid',
            },
          ).as('rows'),
        )
        .whereRef('emails.contact_id', '=', 'contacts.id')
        .as('emails_json'),
      eb
        .selectFrom('memberships')
        .innerJoin('lists', 'lists.id', 'memberships.list_id')
        .select(
          jsonArrayOf<ContactMembershipRow>(
            dialect,
            { id: 'memberships.id', list_name: 'lists.name', digest: 'memberships.digest' },
          ).as('rows'),
        )
        .whereRef('memberships.contact_id', '=', 'contacts.id')
        .as('memberships_json'),
      eb
        .selectFrom('contact_values')
        .select(
          jsonArrayOf<ContactValue>(dialect, {
            field_id: 'contact_values.field_id',
            value: 'contact_values.value',
          }).as('rows'),
        )
        .whereRef('contact_values.contact_id', '=', 'contacts.id')
        .as('values_json'),
    ]);
}

type RowWithChildren = ContactRow & {
  emails_json: JsonRows<ContactEmailRow> | null;
  memberships_json: JsonRows<ContactMembershipRow> | null;
  values_json: JsonRows<ContactValue> | null;
};

/**
 * The row keeps its JSON columns rather than being copied without them (an object rest copy per
 * contact showed in the profile); nothing reads them past this point.
 */
function withChildren(loaded: RowWithChildren): ContactWithChildren {
  return {
    row: loaded,
    emails: byId(parseJsonRows(loaded.emails_json)),
    memberships: byId(parseJsonRows(loaded.memberships_json)),
    values: parseJsonRows(loaded.values_json),
  };
}

/** One page of the address book with the contacts' children, in service-identifier order. */
export async function findContactsPage(
  db: Kysely<Database>,
  accountId: number,
  limit: number,
  offset: number,
): Promise<ContactWithChildren[]> {
  return (await pageOfAll(db, { accountId, limit, offset })).map(withChildren);
}

/** Contacts by service identifier with their children, in identifier order (a renderer's batch). */
export async function findContactsWithChildrenByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<ContactWithChildren[]> {
  if (ids.length === 0) return [];
  const rows = await selectContactsWithChildren(db).where('contacts.id', 'in', ids).orderBy('contacts.id').execute();
  return rows.map(withChildren);
}

/** The address book page by page: the dashboard's contacts page, without a filter. */
const pageOfAll = preparedQuery<{ accountId: number; limit: number; offset: number }, RowWithChildren>(
  (db, slot) =>
    selectContactsWithChildren(db)
      .where('contacts.account_id', '=', slot('accountId'))
      .orderBy('contacts.id')
      .limit(slot('limit'))
      .offset(slot('offset')),
);

/**
 * One contact with its children and its account's custom fields (oldest first): everything a
 * single-contact answer needs, in one statement.
 */
export interface ContactWithFields {
  contact: ContactWithChildren;
  fields: CustomFieldRow[];
}

function selectContactWithFields(db: Kysely<Database>) {
  return selectContactsWithChildren(db).select((eb) =>
    eb
      .selectFrom('custom_fields')
      .select(
        jsonArrayOf<CustomFieldRow>(
          dialectOf(db),
          {
            id: 'custom_fields.id',
            account_id: 'custom_fields.account_id',
            name: 'custom_fields.name',
            identifier: 'custom_fields.identifier',
          },
        ).as('rows'),
      )
      .whereRef('custom_fields.account_id', '=', 'contacts.account_id')
      .as('fields_json'),
  );
}

type RowWithFields = RowWithChildren & { fields_json: JsonRows<CustomFieldRow> | null };

function withFields(loaded: RowWithFields | undefined): ContactWithFields | undefined {
  if (!loaded) return undefined;
  return { contact: withChildren(loaded), fields: byId(parseJsonRows(loaded.fields_json)) };
}

const contactById = preparedQuery<{ accountId: number; id: number }, RowWithFields>((db, slot) =>
  selectContactWithFields(db)
    .where('contacts.account_id', '=', slot('accountId'))
    .where('contacts.id', '=', slot('id')),
);

const contactByCcid = preparedQuery<{ accountId: number; ccid: string }, RowWithFields>((db, slot) =>
  selectContactWithFields(db)
    .where('contacts.account_id', '=', slot('accountId'))
    .where('contacts.ccid', '=', slot('ccid')),
);

/** A contact by its service identifier, with its children and its account's fields. */
export async function findContactWithFieldsById(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<ContactWithFields | undefined> {
  return withFields((await contactById(db, { accountId, id }))[0]);
}

/** findContactByRef, with the contact's children and its account's fields. */
export async function findContactWithFieldsByRef(
  db: Kysely<Database>,
  account: { id: number; ccid: number },
  ref: string,
): Promise<ContactWithFields | undefined> {
  if (account.ccid === 1) return withFields((await contactByCcid(db, { accountId: account.id, ccid: ref }))[0]);
  const id = parseServiceId(ref);
  return id === null ? undefined : findContactWithFieldsById(db, account.id, id);
}

export function findContactById(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findContactByCcid(
  db: Kysely<Database>,
  accountId: number,
  ccid: string,
): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('ccid', '=', ccid)
    .executeTakeFirst();
}

/** The largest id an integer column holds on both dialects; larger text never names a row. */
const MAX_ID = 2_147_483_647;

/** A service identifier from a path segment or a field, or null when the text cannot be one. */
export function parseServiceId(value: string | number): number | null {
  const text = String(value);
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ID ? id : null;
}

/**
 * Finds a contact by the identifier API calls use for it: the ccid on a ccid-enabled account
 * (spec §2.1: "it replaces the service identifier in API calls"), the service id otherwise.
 */
export async function findContactByRef(
  db: Kysely<Database>,
  account: { id: number; ccid: number },
  ref: string | number,
): Promise<ContactRow | undefined> {
  if (account.ccid === 1) return findContactByCcid(db, account.id, String(ref));
  const id = parseServiceId(ref);
  return id === null ? undefined : findContactById(db, account.id, id);
}

export async function insertContact(
  db: Kysely<Database>,
  values: Insertable<ContactsTable>,
): Promise<ContactRow> {
  const row = await db.insertInto('contacts').values(values).returningAll().executeTakeFirstOrThrow();
  noteChangedContacts(db, [row.id]);
  return row;
}

export async function updateContact(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  patch: Updateable<ContactsTable>,
): Promise<void> {
  // A write that names the contact renders its document even when nothing else changed.
  noteChangedContacts(db, [id]);
  if (Object.keys(patch).length === 0) return;
  await db
    .updateTable('contacts')
    .set(patch)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Deletes a contact; its addresses, memberships and custom values go with it (foreign keys cascade). */
export async function deleteContact(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<void> {
  await db
    .deleteFrom('contacts')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/**
 * Holds the contact's row until the transaction ends, so that a check of its addresses and the
 * change it decides stay one step. SQLite runs one write transaction at a time already.
 */
export async function lockContactRow(db: Kysely<Database>, contactId: number): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.selectFrom('contacts').select('id').where('id', '=', contactId).forUpdate().execute();
}
