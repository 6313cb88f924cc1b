import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../api/primitives.ts';
import type { MembershipCreate, MembershipUpdate } from '../../api/schemas/membership.ts';
import { apiFor, type AccountId } from './api-client.ts';
import { rootKeys } from './query-keys.ts';

/**
 * What a membership change refreshes (spec §4.3): the lists first (a list's `contacts` are the
 * members pages' ids), then the account's contacts (each carries its memberships, and the members
 * pages sit under them).
 */
export function useRefreshMemberships(accountId: AccountId) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: rootKeys.lists(accountId) });
    await queryClient.invalidateQueries({ queryKey: rootKeys.contacts(accountId) });
  };
}

/**
 * The membership mutations of spec §4.3, for a contact's page and a list's members page alike.
 * Mutation keys start with the account so a 429 raises that account's banner.
 *
 * @example useCreateMembership(accountId).mutate({ contact: 7, list: 'news', digest: null })
 */
export function useCreateMembership(accountId: AccountId) {
  const refresh = useRefreshMemberships(accountId);
  return useMutation({
    mutationKey: [accountId, 'membership', 'create'],
    mutationFn: (input: MembershipCreate) => apiFor(accountId).membership.create(input),
    onSuccess: refresh,
  });
}

/** Spec §2.3 `digest`: null keeps the address's setting, true forces the digest, false forbids it. */
export function useUpdateMembership(accountId: AccountId) {
  const refresh = useRefreshMemberships(accountId);
  return useMutation({
    mutationKey: [accountId, 'membership', 'update'],
    mutationFn: ({ id, input }: { id: Id; input: MembershipUpdate }) =>
      apiFor(accountId).membership.update(id, input),
    onSuccess: refresh,
  });
}

export function useDeleteMembership(accountId: AccountId) {
  const refresh = useRefreshMemberships(accountId);
  return useMutation({
    mutationKey: [accountId, 'membership', 'delete'],
    mutationFn: (membership: Id) => apiFor(accountId).membership.delete(membership),
    onSuccess: refresh,
  });
}
