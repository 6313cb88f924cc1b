import * as z from 'zod/mini';
import { ListCreate } from '../../../../api/schemas/list.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { useCreateList } from '../api/create-list.ts';

/** The contract's own rules for a list name (spec §2.4): the form and the server agree. */
const NewList = z.pick(ListCreate, { name: true });

/**
 * The new-list form's controller: the name checked as it is typed (§2.4), a name outside the
 * caller's `only` (spec §2.6 limit_lists) refused before sending, and the create, whose refusal
 * (`name: …`, a name taken for one) goes on the name.
 */
export function useNewList(accountId: AccountId, only: readonly string[] | null) {
  const createList = useCreateList(accountId);
  const { form, serverErrors } = useKitForm({
    schema: NewList,
    defaultValues: { name: '' },
    mode: 'onChange',
    serverFields: ['name'] as const,
  });
  const submit = form.handleSubmit((values) => {
    serverErrors.clear();
    if (only && !only.includes(values.name)) {
      form.setError('name', { message: `is not one of the lists you are limited to` });
      return;
    }
    createList.mutate(values, {
      onSuccess: () => form.reset(),
      onError: (error) => void serverErrors.place(error),
    });
  });
  return { form, submit, pending: createList.isPending, formError: serverErrors.formError };
}
