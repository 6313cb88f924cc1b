import { queryOptions } from '@tanstack/react-query';
import { customFieldsOf } from '../../api/schemas/contact.ts';
import { apiFor, type AccountId } from './api-client.ts';
import { rootKeys } from './query-keys.ts';

/**
 * The account's custom fields as far as the API shows them (for `limit_metadata`, spec §2.6). Spec
 * v2 has no endpoint listing them, but a contact carries its custom fields beside the standard
 * ones (§2.1), by identifier or else by name, which is how `limit_metadata` names them; the
 * reference server sends every field on every contact ("" when unset). So one contact is read:
 * one object of the hourly allowance (§8). Empty when the account has no contact yet. Under the
 * contacts key, so a contact change reads it again.
 */
export const customFieldQueries = {
  known: (accountId: AccountId) =>
    queryOptions({
      queryKey: [...rootKeys.contacts(accountId), 'custom-fields'] as const,
      queryFn: async ({ signal }) => {
        const page = await apiFor(accountId).call('contacts.list', { query: { limit: 1 }, signal });
        const first = page.data[0];
        return first ? Object.keys(customFieldsOf(first)).sort((a, b) => a.localeCompare(b)) : [];
      },
    }),
};
