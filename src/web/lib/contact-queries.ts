import { queryOptions } from '@tanstack/react-query';
import type { Id } from '../../api/primitives.ts';
import type { Contact, ContactQuery } from '../../api/schemas/contact.ts';
import { apiFor, type AccountId } from './api-client.ts';
import { rootKeys } from './query-keys.ts';

/** Performance marks: a page of contacts arrived; the table painted it (`npm run bench`). */
export const CONTACTS_DATA_MARK = 'contacts:data';
export const CONTACTS_PAINT_MARK = 'contacts:painted';

/** Spec §4.1. Keys: `[accountId, 'contacts', 'list' | 'detail', …]` (lib/query-keys.ts). */
export const contactQueries = {
  all: rootKeys.contacts,
  list: (accountId: AccountId, query: ContactQuery) =>
    queryOptions({
      queryKey: [...contactQueries.all(accountId), 'list', query] as const,
      queryFn: async ({ signal }) => {
        const page = await apiFor(accountId).call('contacts.list', { query, signal });
        // bench/contacts-render.ts measures from here to the table's paint.
        performance.mark(CONTACTS_DATA_MARK, { detail: { rows: page.data.length } });
        return page;
      },
    }),
  detail: (accountId: AccountId, id: Id) =>
    queryOptions({
      queryKey: [...contactQueries.all(accountId), 'detail', String(id)] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('contacts.get', { params: { id }, signal }),
    }),
};

/**
 * The identifier API calls use for a contact: its ccid on a ccid-enabled account (spec §2.1), else
 * its service id. Each address names its owner that way (§2.2 `contact`), so read it from there.
 */
export function contactRef(contact: Contact): Id {
  return contact.emails[0]?.contact ?? contact.id;
}
