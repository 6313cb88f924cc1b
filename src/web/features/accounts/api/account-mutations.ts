import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type { AccountCreate, AccountUpdate } from '../../../../api/schemas/account.ts';
import { apiFor } from '../../../lib/api-client.ts';
import { accountQueries } from './account-queries.ts';

/**
 * Spec §4.7 mutations, group-wide (no `account_id`). Each invalidates every accounts query
 * (`[null, 'accounts']`): the table, the switcher and the details.
 *
 * @example
 * const create = useCreateAccount();
 * create.mutate({ name: 'acme', administrator: 'boss@acme.example' }, { onSuccess: close });
 */
export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [null, 'accounts', 'create'],
    mutationFn: (input: AccountCreate) => apiFor(null).accounts.create(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueries.all() }),
  });
}

/** Sends the fields given (spec §1 rule 6) and keeps the answer as the account's details. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [null, 'accounts', 'update'],
    mutationFn: ({ id, input }: { id: Id; input: AccountUpdate }) =>
      apiFor(null).accounts.update(id, input),
    onSuccess: (account) => {
      queryClient.setQueryData(accountQueries.detail(account.id).queryKey, account);
      return queryClient.invalidateQueries({ queryKey: accountQueries.all() });
    },
  });
}

/** Spec §4.7 delete: everything of the account goes with it, so its cached data is dropped too. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [null, 'accounts', 'delete'],
    mutationFn: (id: Id) => apiFor(null).accounts.delete(id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: [String(id)] });
      queryClient.removeQueries({ queryKey: accountQueries.detail(id).queryKey });
      return queryClient.invalidateQueries({ queryKey: accountQueries.all() });
    },
  });
}
