import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { NOTIFICATIONS } from '../../../../api/constants.ts';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { applyServerError } from '../../../lib/form-kit.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { callerQueries } from '../../../lib/caller-queries.ts';
import {
  ADMINISTRATOR_FORM_FIELDS,
  PASSWORD_MIN_LENGTH,
  administratorFormSchema,
  versionFields,
  type AdministratorFormValues,
  type AdministratorKind,
} from '../model/administrator-form.ts';
import { cidrUncheckedNote, cidrWarning } from '../model/cidr-warning.ts';
import { LimitMetadataPicker } from './limit-metadata-picker.tsx';
import { LinesField } from './lines-field.tsx';
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
  /** Told when the form gets or loses unsaved edits (its dialog then asks before closing). */
  onDirtyChange?: (dirty: boolean) => void;
}

const LIMIT_PERMISSIONS = new Set(['limit_lists', 'limit_metadata']);

/**
 * The inputs of an administrator, shared by create and edit (spec §2.6). Spec §9 rule 3: only the
 * fields of the administrator's API version appear (model/administrator-form.ts). The limits
 * appear only while their permission is on. The `cidr` warns, as it is typed, when it would shut
 * out the address in use (where the server tells it, api/caller-queries.ts), and says when that
 * address is unknown (a server without the `caller.get` extension).
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
  onDirtyChange,
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
  const fields = versionFields(kind);
  const cidr = useWatch({ control: form.control, name: 'cidr' });
  const callerInfo = useQuery(callerQueries.self());
  const caller = fields.cidr ? callerInfo.data : undefined;
  // A password for the server's sign-in page: the reference server takes one (feature-detected by
  // its `caller.get` extension); spec v2 lists `password` for version 1 only.
  const passwords = fields.password && callerInfo.data?.supported === true;
  // The warning when the range shuts out the address in use; a note when that address is unknown.
  const warning = caller ? cidrWarning(cidr, caller.address) : null;
  const unchecked = caller?.address === null ? cidrUncheckedNote(cidr, caller.supported) : null;
  const [serverError, setServerError] = useState<unknown>(null);
  const dirty = form.formState.isDirty;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      if (!applyServerError(error, ADMINISTRATOR_FORM_FIELDS, form.setError)) setServerError(error);
    }
  });

  const fieldProps = (
    name: keyof AdministratorFormValues,
    error: { message?: string } | undefined,
    warned = false,
  ) => ({
    id: `${id}-${name}`,
    'aria-invalid': error ? true : undefined,
    'aria-describedby':
      [
        error ? `${id}-${name}-error` : '',
        warned ? `${id}-${name}-warning` : '',
        hints[name] ? `${id}-${name}-hint` : '',
      ]
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
        {fields.description && (
          <div className="field">
            <label htmlFor={`${id}-description`}>Description</label>
            <input
              {...fieldProps('description', errors.description)}
              autoComplete="off"
              {...form.register('description')}
            />
            {fieldError('description', 'The description', errors.description)}
          </div>
        )}
        {fields.username && (
          <div className="field">
            <label htmlFor={`${id}-username`}>
              {kind === 'v1' ? 'Username' : 'Username (email address)'}
            </label>
            <input
              {...fieldProps('username', errors.username)}
              type={kind === 'v1' ? 'text' : 'email'}
              autoComplete="off"
              data-initial-focus
              {...form.register('username')}
            />
            {fieldError('username', 'The username', errors.username)}
          </div>
        )}
        {passwords && (
          <div className="field">
            <label htmlFor={`${id}-password`}>
              {kind === 'new' ? 'Password (to sign in)' : 'New password'}
            </label>
            <input
              {...fieldProps('password', errors.password)}
              type="password"
              autoComplete="new-password"
              {...form.register('password')}
            />
            {hint('password')}
            {fieldError('password', 'The password', errors.password)}
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
        {fields.cidr && (
          <div className="field">
            <label htmlFor={`${id}-cidr`}>IP restriction (CIDR)</label>
            <input
              {...fieldProps('cidr', errors.cidr, warning !== null || unchecked !== null)}
              autoComplete="off"
              spellCheck={false}
              {...form.register('cidr')}
            />
            {hint('cidr')}
            {fieldError('cidr', 'The IP restriction', errors.cidr)}
            {/* Announced as it appears while typing; present (empty) before, so it is heard. */}
            <div aria-live="polite">
              {warning && (
                <p id={`${id}-cidr-warning`} className="notice warning">
                  {warning}
                </p>
              )}
              {unchecked && (
                <p id={`${id}-cidr-warning`} className="hint">
                  {unchecked}
                </p>
              )}
            </div>
          </div>
        )}
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
            <LinesField
              id={`${id}-limit_lists`}
              label="Lists this administrator is limited to"
              hint="One list name per line (global administrators are not tied to one account)."
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={fieldError('limit_lists', 'The list limit', errors.limit_lists)}
              errorId={errors.limit_lists ? `${id}-limit_lists-error` : undefined}
            />
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
        <Controller
          control={form.control}
          name="limit_metadata"
          render={({ field }) => (
            <LimitMetadataPicker
              accountId={accountId}
              groupLevel={groupLevel}
              id={`${id}-limit_metadata`}
              value={field.value}
              onChange={field.onChange}
              error={fieldError('limit_metadata', 'The custom-field limit', errors.limit_metadata)}
              errorId={errors.limit_metadata ? `${id}-limit_metadata-error` : undefined}
            />
          )}
        />
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
  password: `At least ${String(PASSWORD_MIN_LENGTH)} characters; hand it over in person or by phone, not in the same email as the username. Empty: no change (a new person without one cannot sign in until given one).`,
  cidr: 'Optional. Requests with this administrator’s API keys are refused from other addresses, e.g. 203.0.113.0/24. Make sure it includes the address you work from.',
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
