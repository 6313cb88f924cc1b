import * as z from 'zod/mini';
import { EmailCreate } from '../../../../api/schemas/email.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { useCreateEmail } from '../api/contact-mutations.ts';

const NewAddress = z.pick(EmailCreate, { email: true, digest: true });

/**
 * The add-an-address form's controller (spec §4.2 create): the address and its digest flag, and
 * the create, whose refusal (an address in use, for one) goes on the address or beside the form.
 */
export function useAddEmail(accountId: AccountId, contactRef: string | number) {
  const create = useCreateEmail(accountId);
  const { form, serverErrors } = useKitForm({
    schema: NewAddress,
    defaultValues: { email: '', digest: false },
    serverFields: ['email'] as const,
  });
  const submit = form.handleSubmit((values) => {
    serverErrors.clear();
    create.mutate(
      { ...values, contact: contactRef },
      { onSuccess: () => form.reset(), onError: (error) => void serverErrors.place(error) },
    );
  });
  return { form, submit, pending: create.isPending, formError: serverErrors.formError };
}
