import { zodResolver } from '../../../components/form/zod-resolver.ts';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { ListCreate } from '../../../../api/schemas/list.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FormField, errorOf } from '../../../components/form/form-field.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useServerErrors } from '../../../lib/form-kit.ts';
import { useCreateList } from '../api/create-list.ts';

/** The contract's own rules for a list name (spec §2.4): the form and the server agree. */
const NewList = z.pick(ListCreate, { name: true });
type NewList = z.input<typeof NewList>;

/**
 * Creates a list by name; its settings are edited later on the list's own page. `only`: the
 * names a list-limited principal may still create (spec §2.6), or null for any.
 */
export function NewListForm({
  accountId,
  only,
}: {
  accountId: AccountId;
  only: readonly string[] | null;
}) {
  const createList = useCreateList(accountId);
  const form = useForm<NewList>({
    resolver: zodResolver(NewList),
    defaultValues: { name: '' },
    // The §2.4 name rule is checked while typing.
    mode: 'onChange',
  });
  // `name: …` from the server belongs on the name field (a name already taken, for one).
  const serverErrors = useServerErrors(form, ['name'] as const);
  const id = useId();

  const onSubmit = form.handleSubmit((values) => {
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

  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="New list">
      <FormField
        id={`${id}-name`}
        label="New list name"
        hint={
          only
            ? `You are limited to some lists: you may create ${only.join(', ')}.`
            : 'Letters, digits, underscore, period and hyphen; at most 64 characters.'
        }
        {...errorOf('The name', form.formState.errors.name)}
      >
        {(control) => (
          <input {...control} autoComplete="off" spellCheck={false} {...form.register('name')} />
        )}
      </FormField>
      <button type="submit" className="button" disabled={createList.isPending}>
        {createList.isPending ? 'Creating…' : 'Create list'}
      </button>
      {serverErrors.formError !== null && <ErrorMessage error={serverErrors.formError} />}
    </form>
  );
}
