import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';

/**
 * Membership changes from a list's members page (spec §4.1, §4.3). The list is refreshed first
 * (its `contacts` are the pages' ids), then the account's contacts (the pages themselves).
 */
function useRefresh(accountId: AccountId) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: [accountId, 'lists'] });
    await queryClient.invalidateQueries({ queryKey: [accountId, 'contacts'] });
  };
}

/** Adds an existing contact to the list. */
export function useAddMember(accountId: AccountId, list: string) {
  const refresh = useRefresh(accountId);
  return useMutation({
    mutationKey: [accountId, 'membership', 'create'],
    mutationFn: (contact: Id) => apiFor(accountId).membership.create({ contact, list }),
    onSuccess: refresh,
  });
}

/** A new contact with one address, created as a member (spec §4.1: `lists` on create). */
export function useCreateMember(accountId: AccountId, list: string) {
  const refresh = useRefresh(accountId);
  return useMutation({
    mutationKey: [accountId, 'contacts', 'create'],
    mutationFn: (email: string) => apiFor(accountId).contacts.create({ emails: [email], lists: [list] }),
    onSuccess: refresh,
  });
}

export function useRemoveMember(accountId: AccountId) {
  const refresh = useRefresh(accountId);
  return useMutation({
    mutationKey: [accountId, 'membership', 'delete'],
    mutationFn: (membership: Id) => apiFor(accountId).membership.delete(membership),
    onSuccess: refresh,
  });
}

/** Spec §2.3: null keeps the address's setting, true forces the digest, false forbids it. */
export function useMemberDigest(accountId: AccountId) {
  const refresh = useRefresh(accountId);
  return useMutation({
    mutationKey: [accountId, 'membership', 'update'],
    mutationFn: ({ id, digest }: { id: Id; digest: boolean | null }) =>
      apiFor(accountId).membership.update(id, { digest }),
    onSuccess: refresh,
  });
}

/** Searches the address book to add someone (spec §4.1 search, across all contact properties). */
export function findContacts(accountId: AccountId, search: string) {
  return apiFor(accountId).call('contacts.list', { query: { search, limit: 10 } });
}
