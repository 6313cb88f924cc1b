import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type * as z from 'zod';
import { ListCreate } from '../../../../api/schemas/list.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useCreateList } from '../api/create-list.ts';

/** The contract's own rules for a list name (spec §2.4): the form and the server agree. */
const NewList = ListCreate.pick({ name: true });
type NewList = z.input<typeof NewList>;

/** Creates a list by name; its settings are edited later on the list's own page. */
export function CreateListForm({ accountId }: { accountId: AccountId }) {
  const createList = useCreateList(accountId);
  const form = useForm<NewList>({ resolver: zodResolver(NewList), defaultValues: { name: '' } });
  const nameId = useId();
  const errorId = useId();
  const nameError = form.formState.errors.name;

  const onSubmit = form.handleSubmit((values) =>
    createList.mutate(values, { onSuccess: () => form.reset() }),
  );

  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="New list">
      <div className="field">
        <label htmlFor={nameId}>New list name</label>
        <input
          id={nameId}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? errorId : undefined}
          {...form.register('name')}
        />
        {nameError && (
          <p id={errorId} className="field-error">
            The name {nameError.message}.
          </p>
        )}
      </div>
      <button type="submit" className="button" disabled={createList.isPending}>
        {createList.isPending ? 'Creating…' : 'Create list'}
      </button>
      {createList.isError && <ErrorMessage error={createList.error} />}
    </form>
  );
}
