import { useId } from 'react';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FormField } from '../../../components/form/form-field.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { useNewList } from '../controllers/use-new-list.ts';

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
  const { form, submit, pending, formError } = useNewList(accountId, only);
  const id = useId();
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-label="New list">
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
      <button type="submit" className="button" disabled={pending}>
        {pending ? 'Creating…' : 'Create list'}
      </button>
      {formError !== null && <ErrorMessage error={formError} />}
    </form>
  );
}
