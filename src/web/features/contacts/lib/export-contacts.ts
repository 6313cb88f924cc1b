import { PAGE_LIMITS } from '../../../../api/constants.ts';
import {
  customFieldsOf,
  type Contact,
  type ContactQuery,
} from '../../../../api/schemas/contact.ts';
import { toCsv } from '../../../lib/csv.ts';
import { filtersOf } from './search-params.ts';

type ListPage = (
  query: ContactQuery,
  signal?: AbortSignal,
) => Promise<{
  count: number;
  data: Contact[];
}>;

/**
 * Every contact matching a search, read page by page at the largest page size (spec §8).
 * Stops when the server has sent `count` contacts, or a page comes back short.
 */
export async function fetchAllContacts(
  listPage: ListPage,
  query: ContactQuery,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<Contact[]> {
  const limit = PAGE_LIMITS.contacts.max;
  const all: Contact[] = [];
  for (let page = 1; ; page++) {
    signal?.throwIfAborted();
    const result = await listPage({ ...filtersOf(query), page, limit }, signal);
    all.push(...result.data);
    onProgress?.(all.length, result.count);
    if (result.data.length < limit || all.length >= result.count) return all;
  }
}

export const EXPORT_COLUMNS = ['id', 'ccid', 'firstname', 'surname', 'created', 'notes'] as const;

/**
 * One record per contact: the standard fields, its addresses (with their digest, paused and
 * confirmed flags), its memberships (with the digest override), then one column per custom field.
 * Several values in one field are separated by `;` (neither addresses nor list names hold one).
 */
export function contactsToCsv(contacts: readonly Contact[]): string {
  const customKeys = [...new Set(contacts.flatMap((c) => Object.keys(customFieldsOf(c))))].sort();
  const header = [
    ...EXPORT_COLUMNS,
    'emails',
    'digest_emails',
    'paused_emails',
    'unconfirmed_emails',
    'lists',
    'lists_digest',
    'lists_no_digest',
    ...customKeys,
  ];
  const addresses = (contact: Contact, keep: (e: Contact['emails'][number]) => boolean) =>
    contact.emails
      .filter(keep)
      .map((e) => e.email)
      .join(';');
  const lists = (contact: Contact, digest: boolean | null | undefined) =>
    contact.lists
      .filter((m) => digest === undefined || m.digest === digest)
      .map((m) => m.list)
      .join(';');
  const rows = contacts.map((contact) => {
    const custom = customFieldsOf(contact);
    return [
      String(contact.id),
      contact.ccid ?? '',
      contact.firstname,
      contact.surname,
      contact.created,
      contact.notes,
      addresses(contact, () => true),
      addresses(contact, (e) => e.digest),
      addresses(contact, (e) => e.paused),
      addresses(contact, (e) => !e.confirmed),
      lists(contact, undefined),
      lists(contact, true),
      lists(contact, false),
      ...customKeys.map((key) => custom[key] ?? ''),
    ];
  });
  return toCsv([header, ...rows]);
}
