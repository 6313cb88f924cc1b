import {
  SqliteAdapter,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  type SqlBool,
  type Updateable,
} from 'kysely';
import type { ContactsTable, Database } from '../db/schema.ts';

export type ContactRow = Selectable<ContactsTable>;

/** Spec §4.1 get many: every filter given applies. */
export interface ContactFilter {
  /** Lower-cased search term, matched as a substring of every property. */
  search?: string;
  /**
   * When the caller may see only some custom fields (spec §2.6 limit_metadata), the fields whose
   * values the search may match; undefined: every field.
   */
  searchFieldIds?: readonly number[];
  /** Lower-cased address: the contact holding it. */
  emailKey?: string;
  id?: number;
  /** Contacts on no list. */
  orphans?: boolean;
}

/** Escapes the LIKE wildcards (and the escape character) of user text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function like(column: Expression<string>, pattern: string) {
  return sql<SqlBool>`${column} like ${pattern} escape '\\'`;
}

/** Whether the SQLite full-text index of contacts (migration 0300) answers searches. */
function hasFts(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

function matching(accountId: number, filter: ContactFilter, fts = false) {
  return (eb: ExpressionBuilder<Database, 'contacts'>) => {
    const conditions: Expression<SqlBool>[] = [eb('contacts.account_id', '=', accountId)];
    if (filter.id !== undefined) conditions.push(eb('contacts.id', '=', filter.id));
    if (filter.emailKey !== undefined) {
      conditions.push(
        eb(
          'contacts.id',
          'in',
          eb
            .selectFrom('emails')
            .select('emails.contact_id')
            .where('emails.account_id', '=', accountId)
            .where('emails.email_key', '=', filter.emailKey),
        ),
      );
    }
    if (filter.orphans) {
      conditions.push(
        eb.not(
          eb.exists(
            eb
              .selectFrom('memberships')
              .select('memberships.id')
              .whereRef('memberships.contact_id', '=', 'contacts.id'),
          ),
        ),
      );
    }
    if (filter.search !== undefined) {
      const pattern = `%${escapeLike(filter.search)}%`;
      // search_text holds every property lower-cased: one indexed scan (pg_trgm on PostgreSQL).
      conditions.push(like(sql.ref<string>('contacts.search_text'), pattern));
      if (fts && [...filter.search].length >= 3) {
        // SQLite: the FTS5 trigram index finds the candidates (a quoted phrase is a literal
        // substring there); the LIKE above keeps the exact semantics.
        const phrase = `"${filter.search.replaceAll('"', '""')}"`;
        conditions.push(
          eb('contacts.id', 'in', sql<number>`(select rowid from contacts_fts where contacts_fts match ${phrase})`),
        );
      }
      if (filter.searchFieldIds !== undefined) {
        // A limited caller must not find contacts through values it cannot see: re-check the match
        // against the visible properties only.
        const visible: Expression<SqlBool>[] = [
          like(
            sql<string>`lower(contacts.firstname || ' ' || contacts.surname || ' ' || contacts.notes || ' ' || coalesce(contacts.ccid, ''))`,
            pattern,
          ),
          eb.exists(
            eb
              .selectFrom('emails')
              .select('emails.id')
              .whereRef('emails.contact_id', '=', 'contacts.id')
              .where(like(sql.ref<string>('emails.email_key'), pattern)),
          ),
        ];
        if (filter.searchFieldIds.length > 0) {
          visible.push(
            eb.exists(
              eb
                .selectFrom('contact_values')
                .select('contact_values.field_id')
                .whereRef('contact_values.contact_id', '=', 'contacts.id')
                .where('contact_values.field_id', 'in', filter.searchFieldIds)
                .where(like(sql<string>`lower(contact_values.value)`, pattern)),
            ),
          );
        }
        conditions.push(eb.or(visible));
      }
    }
    return eb.and(conditions);
  };
}

export async function countContacts(
  db: Kysely<Database>,
  accountId: number,
  filter: ContactFilter,
): Promise<number> {
  const row = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(matching(accountId, filter, hasFts(db)))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of contacts, in service-identifier order. */
export function findContactsPage(
  db: Kysely<Database>,
  accountId: number,
  filter: ContactFilter,
  limit: number,
  offset: number,
): Promise<ContactRow[]> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where(matching(accountId, filter, hasFts(db)))
    .orderBy('contacts.id')
    .limit(limit)
    .offset(offset)
    .execute();
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

export function insertContact(
  db: Kysely<Database>,
  values: Insertable<ContactsTable>,
): Promise<ContactRow> {
  return db.insertInto('contacts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateContact(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  patch: Updateable<ContactsTable>,
): Promise<void> {
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
