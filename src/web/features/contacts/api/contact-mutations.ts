import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type { ContactCreate } from '../../../../api/schemas/contact.ts';
import type { EmailCreate, EmailUpdate } from '../../../../api/schemas/email.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';

/**
 * Mutation hooks of spec §4.1–4.2 (memberships: lib/membership-mutations.ts). Every one
 * invalidates the account's contacts (a contact's addresses are part of it); those touching
 * memberships also its lists (a list's `contacts`). Mutation keys start with the account so a 429
 * raises that account's banner.
 */
export function useInvalidate(accountId: AccountId) {
  const queryClient = useQueryClient();
  return (withLists: boolean) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: contactQueries.all(accountId) }),
      withLists ? queryClient.invalidateQueries({ queryKey: listQueries.all(accountId) }) : null,
    ]);
}

/** @example useCreateContact(accountId).mutate({ emails: ['a@example.org'], lists: ['news'] }) */
export function useCreateContact(accountId: AccountId) {
  const invalidate = useInvalidate(accountId);
  return useMutation({
    mutationKey: [accountId, 'contacts', 'create'],
    mutationFn: (input: ContactCreate) => apiFor(accountId).contacts.create(input),
    onSuccess: () => invalidate(true),
  });
}

export function useDeleteContact(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'contacts', 'delete'],
    mutationFn: (contactId: Id) => apiFor(accountId).contacts.delete(contactId),
    onSuccess: (_data, contactId) => {
      // The deleted contact is not fetched again; lists and pages are.
      queryClient.removeQueries({ queryKey: contactQueries.detail(accountId, contactId).queryKey });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: contactQueries.all(accountId) }),
        queryClient.invalidateQueries({ queryKey: listQueries.all(accountId) }),
      ]);
    },
  });
}

export function useCreateEmail(accountId: AccountId) {
  const invalidate = useInvalidate(accountId);
  return useMutation({
    mutationKey: [accountId, 'emails', 'create'],
    mutationFn: (input: EmailCreate) => apiFor(accountId).emails.create(input),
    onSuccess: () => invalidate(false),
  });
}

export function useUpdateEmail(accountId: AccountId) {
  const invalidate = useInvalidate(accountId);
  return useMutation({
    mutationKey: [accountId, 'emails', 'update'],
    mutationFn: ({ id, input }: { id: Id; input: EmailUpdate }) =>
      apiFor(accountId).emails.update(id, input),
    onSuccess: () => invalidate(false),
  });
}

/**
 * Spec §4.2: deleting a contact's last address deletes the contact too; then its page's query is
 * dropped instead of being fetched again (it would answer 404).
 */
export function useDeleteEmail(accountId: AccountId) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate(accountId);
  return useMutation({
    mutationKey: [accountId, 'emails', 'delete'],
    mutationFn: ({ id }: { id: Id; contact: Id; last: boolean }) =>
      apiFor(accountId).emails.delete(id),
    onSuccess: (_data, { contact, last }) => {
      if (last) {
        queryClient.removeQueries({ queryKey: contactQueries.detail(accountId, contact).queryKey });
      }
      return invalidate(true);
    },
  });
}
