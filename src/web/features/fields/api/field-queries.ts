import { queryOptions } from '@tanstack/react-query';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { callExtension } from '../../../lib/extensions.ts';

/**
 * The reference server's custom fields (extension `fields.*`, read by whoever reads contacts).
 * Keys: `[accountId, 'fields', 'list']`. The list answers `{supported: false}` on a server without
 * the extension (lib/extensions.ts): the page is not offered there. One object a field (spec §8).
 */
export const fieldQueries = {
  all: (accountId: AccountId) => [accountId, 'fields'] as const,
  list: (accountId: AccountId) =>
    queryOptions({
      queryKey: [...fieldQueries.all(accountId), 'list'] as const,
      queryFn: ({ signal }) =>
        callExtension(() => apiFor(accountId).call('fields.list', { signal })),
    }),
};
