import { useMutation } from '@tanstack/react-query';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { useRefreshMemberships } from '../../../lib/membership-mutations.ts';

/** A new contact with one address, created as a member (spec §4.1: `lists` on create). */
export function useCreateMember(accountId: AccountId, list: string) {
  const refresh = useRefreshMemberships(accountId);
  return useMutation({
    mutationKey: [accountId, 'contacts', 'create'],
    mutationFn: (email: string) =>
      apiFor(accountId).contacts.create({ emails: [email], lists: [list] }),
    onSuccess: refresh,
  });
}

/** Searches the address book to add someone (spec §4.1 search, across all contact properties). */
export function findContacts(accountId: AccountId, search: string) {
  return apiFor(accountId).call('contacts.list', { query: { search, limit: 10 } });
}
