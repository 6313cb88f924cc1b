import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type {
  AdministratorCreate,
  AdministratorUpdate,
} from '../../../../api/schemas/administrator.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { rememberKeyExpiry } from '../lib/key-expiry.ts';
import { administratorQueries } from './administrator-queries.ts';

/**
 * Spec §4.6 create (a person: `username` is an email address). Invalidates the account's
 * administrators.
 *
 * @example
 * const create = useCreateAdministrator(accountId);
 * create.mutate({ username: 'ann@example.com', permissions: ['list'] }, { onSuccess: close });
 */
export function useCreateAdministrator(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'administrators', 'create'],
    mutationFn: (input: AdministratorCreate) => apiFor(accountId).users.create(input),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: administratorQueries.all(accountId) }),
  });
}

/** Spec §4.6 update: `permissions` and `notifications` replace the whole arrays. */
export function useUpdateAdministrator(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'administrators', 'update'],
    mutationFn: ({ id, input }: { id: Id; input: AdministratorUpdate }) =>
      apiFor(accountId).users.update(id, input),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: administratorQueries.all(accountId) }),
  });
}

/** Spec §4.6 delete; the administrator's keys go with it. */
export function useDeleteAdministrator(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'administrators', 'delete'],
    mutationFn: (id: Id) => apiFor(accountId).users.delete(id),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: administratorQueries.all(accountId) }),
  });
}

/**
 * Spec §4.6 key retrieval: a new key for the administrator, optionally expiring after 1, 3, 6 or
 * 12 months. The answer is shown once and never cached; only its expiry is remembered, and the
 * administrators are read again for the server's `key_expiry`, which counts every key.
 */
export function useRetrieveKey(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'administrators', 'retrieve-key'],
    // The key leaves the mutation cache as soon as its dialog lets go of it.
    gcTime: 0,
    mutationFn: ({ id, months }: { id: Id; months?: 1 | 3 | 6 | 12 }) =>
      apiFor(accountId).users.retrieveKey(id, months),
    onSuccess: (answer, { id }) => {
      rememberKeyExpiry(accountId, String(id), answer.expiry ?? null);
      return queryClient.invalidateQueries({ queryKey: administratorQueries.all(accountId) });
    },
  });
}
