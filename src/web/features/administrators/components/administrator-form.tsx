import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { NOTIFICATIONS } from '../../../../api/constants.ts';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { serverFieldError } from '../../../lib/server-field-error.ts';
import { listQueries } from '../../lists/api/list-queries.ts';
import {
  ADMINISTRATOR_FORM_FIELDS,
  administratorFormSchema,
  type AdministratorFormValues,
  type AdministratorKind,
} from '../model/administrator-form.ts';
import {
  NOTIFICATION_MEANINGS,
  PERMISSION_GROUPS,
  PERMISSION_PRESETS,
} from '../model/permissions.ts';

interface AdministratorFormProps {
  accountId: AccountId;
  /**
   * The group's global administrators (spec §4.8 rule 2): no account, so no lists to pick from;
   * list names are typed instead.
   */
  groupLevel: boolean;
  kind: AdministratorKind;
  defaultValues: AdministratorFormValues;
  submitLabel: string;
  pending: boolean;
  /** Resolves when saved; rejects with the server's error, which goes on its field if it names one. */
  onSubmit: (values: AdministratorFormValues) => Promise<unknown>;
  onCancel: () => void;
}

const LIMIT_PERMISSIONS = new Set(['limit_lists', 'limit_metadata']);

/**
 * The inputs of an administrator, shared by create and edit (spec §2.6). Spec §9 rule 3: a person
 * has a username, a version 2 key a description. The limits appear only while their permission is
 * on.
 */
export function AdministratorForm({
  accountId,
  groupLevel,
  kind,
  defaultValues,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
}: AdministratorFormProps) {
  const form = useForm<AdministratorFormValues>({
    resolver: zodResolver(administratorFormSchema(kind)),
    defaultValues,
  });
  const id = useId();
  const errors = form.formState.errors;
  const permissions = useWatch({ control: form.control, name: 'permissions' });
  const limitsLists = permissions.includes('limit_lists');
  const limitsMetadata = permissions.includes('limit_metadata');
  const [serverError, setServerError] = useState<unknown>(null);

  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      const onField = serverFieldError(error, ADMINISTRATOR_FORM_FIELDS);
      if (onField) form.setError(onField.field, { type: 'server', message: onField.message });
      else setServerError(error);
    }
  });

  const fieldProps = (
    name: keyof AdministratorFormValues,
    error: { message?: string } | undefined,
  ) => ({
    id: `${id}-${name}`,
    'aria-invalid': error ? true : undefined,
    'aria-describedby':
      [error ? `${id}-${name}-error` : '', hints[name] ? `${id}-${name}-hint` : '']
        .filter(Boolean)
        .join(' ') || undefined,
  });
  const fieldError = (
    name: keyof AdministratorFormValues,
    label: string,
    error?: { message?: string },
  ) =>
    error?.message && (
      <p id={`${id}-${name}-error`} className="field-error">
        {label} {error.message}.
      </p>
    );
  const hint = (name: keyof AdministratorFormValues) =>
    hints[name] && (
      <p id={`${id}-${name}-hint`} className="hint">
        {hints[name]}
      </p>
    );

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label={submitLabel}>
      <div className="form-grid">
        {kind === 'key' ? (
          <div className="field">
            <label htmlFor={`${id}-description`}>Description</label>
            <input
              {...fieldProps('description', errors.description)}
              autoComplete="off"
              {...form.register('description')}
            />
            {fieldError('description', 'The description', errors.description)}
          </div>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-username`}>Username (email address)</label>
            <input
              {...fieldProps('username', errors.username)}
              type="email"
              autoComplete="off"
              data-initial-focus
              {...form.register('username')}
            />
            {fieldError('username', 'The username', errors.username)}
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-firstname`}>First name</label>
          <input
            {...fieldProps('firstname', errors.firstname)}
            autoComplete="off"
            {...form.register('firstname')}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-surname`}>Surname</label>
          <input
            {...fieldProps('surname', errors.surname)}
            autoComplete="off"
            {...form.register('surname')}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-cidr`}>IP restriction (CIDR)</label>
          <input
            {...fieldProps('cidr', errors.cidr)}
            autoComplete="off"
            spellCheck={false}
            {...form.register('cidr')}
          />
          {hint('cidr')}
          {fieldError('cidr', 'The IP restriction', errors.cidr)}
        </div>
      </div>
      <div className="checkbox-field">
        <input id={`${id}-custom_image`} type="checkbox" {...form.register('custom_image')} />
        <label htmlFor={`${id}-custom_image`}>Show the account&apos;s custom image banner</label>
      </div>
      {kind === 'new' && (
        <div className="checkbox-field">
          <input id={`${id}-welcome_email`} type="checkbox" {...form.register('welcome_email')} />
          <label htmlFor={`${id}-welcome_email`}>Send a welcome email</label>
        </div>
      )}

      <div className="actions" role="group" aria-label="Permission presets">
        <span className="hint">Presets:</span>
        {PERMISSION_PRESETS.map((preset) => (
          <button
            key={preset.name}
            type="button"
            className="button small"
            onClick={() =>
              form.setValue(
                'permissions',
                [
                  ...preset.permissions,
                  ...form.getValues('permissions').filter((p) => LIMIT_PERMISSIONS.has(p)),
                ],
                { shouldDirty: true },
              )
            }
          >
            {preset.name}
          </button>
        ))}
      </div>
      <Controller
        control={form.control}
        name="permissions"
        render={({ field }) => (
          <div className="stack">
            {PERMISSION_GROUPS.map((group) => (
              <CheckboxGroup
                key={group.legend}
                legend={`Permissions: ${group.legend.toLowerCase()}`}
                options={group.items.map((item) => ({ ...item, label: item.value }))}
                value={field.value.filter((p) => group.items.some((item) => item.value === p))}
                onChange={(chosen) =>
                  field.onChange([
                    ...field.value.filter((p) => !group.items.some((item) => item.value === p)),
                    ...chosen,
                  ])
                }
              />
            ))}
          </div>
        )}
      />
      {limitsLists && groupLevel && (
        <Controller
          control={form.control}
          name="limit_lists"
          render={({ field }) => (
            <div className="field">
              <label htmlFor={`${id}-limit_lists`}>Lists this administrator is limited to</label>
              <textarea
                rows={3}
                spellCheck={false}
                {...fieldProps('limit_lists', errors.limit_lists)}
                aria-describedby={[
                  errors.limit_lists ? `${id}-limit_lists-error` : '',
                  `${id}-limit_lists-hint`,
                ]
                  .filter(Boolean)
                  .join(' ')}
                value={field.value.join('\n')}
                onChange={(event) => field.onChange(event.target.value.split('\n'))}
                onBlur={field.onBlur}
              />
              <p id={`${id}-limit_lists-hint`} className="hint">
                One list name per line (global administrators are not tied to one account).
              </p>
              {fieldError('limit_lists', 'The list limit', errors.limit_lists)}
            </div>
          )}
        />
      )}
      {limitsLists && !groupLevel && (
        <Controller
          control={form.control}
          name="limit_lists"
          render={({ field }) => (
            <LimitListsPicker
              accountId={accountId}
              value={field.value}
              onChange={field.onChange}
              error={fieldError('limit_lists', 'The list limit', errors.limit_lists)}
              errorId={errors.limit_lists ? `${id}-limit_lists-error` : undefined}
            />
          )}
        />
      )}
      {limitsMetadata && (
        <div className="field">
          <label htmlFor={`${id}-limit_metadata`}>
            Custom fields this administrator is limited to
          </label>
          <textarea
            rows={3}
            {...fieldProps('limit_metadata', errors.limit_metadata)}
            {...form.register('limit_metadata')}
          />
          {hint('limit_metadata')}
          {fieldError('limit_metadata', 'The custom-field limit', errors.limit_metadata)}
        </div>
      )}
      <Controller
        control={form.control}
        name="notifications"
        render={({ field }) => (
          <CheckboxGroup
            legend="Notifications (emails received)"
            options={NOTIFICATIONS.map((value) => ({
              value,
              label: value,
              meaning: NOTIFICATION_MEANINGS.find((n) => n.value === value)?.meaning,
            }))}
            value={field.value}
            onChange={field.onChange}
          />
        )}
      />
      {serverError !== null && <ErrorMessage error={serverError} />}
      <div className="actions">
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const hints: Partial<Record<keyof AdministratorFormValues, string>> = {
  cidr: 'Optional. Requests with this administrator’s API keys are refused from other addresses, e.g. 203.0.113.0/24. Make sure it includes the address you work from.',
  limit_metadata:
    'One custom field per line, by its identifier if it has one, otherwise by its full name (the API cannot list an account’s custom fields).',
};

function LimitListsPicker({
  accountId,
  value,
  onChange,
  error,
  errorId,
}: {
  accountId: AccountId;
  value: string[];
  onChange: (value: string[]) => void;
  error: ReactNode;
  errorId: string | undefined;
}) {
  const lists = useQuery(listQueries.list(accountId));
  if (lists.isPending) return <p role="status">Loading the account’s lists…</p>;
  if (lists.isError)
    return <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />;
  return (
    <div>
      {lists.data.length === 0 ? (
        <p>The account has no lists to limit this administrator to.</p>
      ) : (
        <CheckboxGroup
          legend="Lists this administrator is limited to"
          options={lists.data.map((list) => ({
            value: list.name,
            label: list.name,
            meaning: list.description || undefined,
          }))}
          value={value}
          onChange={onChange}
          describedBy={errorId}
        />
      )}
      {error}
    </div>
  );
}
