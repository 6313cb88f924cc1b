import { queryOptions } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { rootKeys } from '../../../lib/query-keys.ts';

/**
 * Spec §4.6 (`/users/`). Keys: `[accountId, 'administrators', 'list' | 'detail', …]`. A global
 * principal with a null account reads the group's global administrators (§4.8 rule 2).
 */
export const administratorQueries = {
  all: rootKeys.administrators,
  list: (accountId: AccountId) =>
    queryOptions({
      queryKey: [...administratorQueries.all(accountId), 'list'] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('users.list', { signal }),
    }),
  detail: (accountId: AccountId, id: Id) =>
    queryOptions({
      queryKey: [...administratorQueries.all(accountId), 'detail', id] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('users.get', { params: { id }, signal }),
    }),
};
