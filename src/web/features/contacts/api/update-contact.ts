import { useMutation } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type { ContactUpdate } from '../../../../api/schemas/contact.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { reportingApi } from '../../../lib/ignored-fields.ts';
import { useInvalidate } from './contact-mutations.ts';

// Apart from contact-mutations.ts: the new-contact page loads those, not this nor what it reads.
/**
 * Sends only the fields given (spec §1 rule 6); answers the contact as stored and the fields the
 * server did not store (`X-Ignored-Fields`: a custom field the account does not define).
 */
export function useUpdateContact(accountId: AccountId, contactId: Id) {
  const invalidate = useInvalidate(accountId);
  return useMutation({
    mutationKey: [accountId, 'contacts', 'update', String(contactId)],
    mutationFn: async (input: ContactUpdate) => {
      const { api, ignored } = reportingApi(accountId);
      const contact = await api.contacts.update(contactId, input);
      return { contact, ignored: ignored() };
    },
    onSuccess: () => invalidate(false),
  });
}
