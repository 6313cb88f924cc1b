import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { NOTIFICATIONS, PERMISSIONS } from '../../../../api/constants.ts';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FormActions } from '../../../components/form/form-actions.tsx';
import { FieldError, FormField } from '../../../components/form/form-field.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { reachableLists } from '../../../lib/reach.ts';
import { useAdministratorForm } from '../controllers/use-administrator-form.ts';
import {
  PASSWORD_MIN_LENGTH,
  unknownValues,
  type AdministratorFormOutput,
  type AdministratorFormValues,
  type AdministratorKind,
} from '../model/administrator-form.ts';
import { LimitMetadataPicker } from './limit-metadata-picker.tsx';
import { LinesField } from './lines-field.tsx';
import { PermissionReach } from './permission-reach.tsx';
import {
  NOTIFICATION_MEANINGS,
  PERMISSION_GROUPS,
  PERMISSION_PRESETS,
} from '../model/permissions.ts';

export interface AdministratorFormProps {
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
  onSubmit: (values: AdministratorFormOutput) => Promise<unknown>;
  onCancel: () => void;
  /** Told when the form gets or loses unsaved edits (its dialog then asks before closing). */
  onDirtyChange?: (dirty: boolean) => void;
}

/**
 * The inputs of an administrator, shared by create and edit (spec §2.6); the logic is the form's
 * controller (controllers/use-administrator-form.ts). Spec §9 rule 3: only the fields of the
 * administrator's API version appear. The limits appear only while their permission is on. The
 * `cidr` warns, as it is typed, when it would shut out the address in use, and says when that
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
  const {
    form,
    fields,
    submit,
    formError,
    passwords,
    limitsLists,
    limitsMetadata,
    keptLimits,
    cidrWarning,
    cidrUnchecked,
    welcome,
    applyPreset,
    permissions,
  } = useAdministratorForm({ kind, defaultValues, onSubmit, onDirtyChange });
  const id = useId();
  const errors = form.formState.errors;
  const fieldId = (name: keyof AdministratorFormValues) => `${id}-${name}`;

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label={submitLabel}>
      <div className="form-grid">
        {fields.description && (
          <FormField
            id={fieldId('description')}
            label="Description"
            {...errorOf('The description', errors.description)}
          >
            {(control) => (
              <input {...control} autoComplete="off" {...form.register('description')} />
            )}
          </FormField>
        )}
        {fields.username && (
          <FormField
            id={fieldId('username')}
            label={kind === 'v1' ? 'Username' : 'Username (email address)'}
            {...errorOf('The username', errors.username)}
          >
            {(control) => (
              <input
                {...control}
                type={kind === 'v1' ? 'text' : 'email'}
                autoComplete="off"
                data-initial-focus
                {...form.register('username')}
              />
            )}
          </FormField>
        )}
        {passwords && (
          <FormField
            id={fieldId('password')}
            label={kind === 'new' ? 'Password (to sign in)' : 'New password'}
            hint={
              kind === 'new'
                ? welcome.offersLink
                  ? HINTS.newPasswordOrLink
                  : HINTS.newPassword
                : HINTS.password
            }
            {...errorOf('The password', errors.password)}
          >
            {(control) => (
              <input
                {...control}
                type="password"
                autoComplete="new-password"
                {...form.register('password')}
              />
            )}
          </FormField>
        )}
        <FormField id={fieldId('firstname')} label="First name">
          {(control) => <input {...control} autoComplete="off" {...form.register('firstname')} />}
        </FormField>
        <FormField id={fieldId('surname')} label="Surname">
          {(control) => <input {...control} autoComplete="off" {...form.register('surname')} />}
        </FormField>
        {fields.cidr && (
          <FormField
            id={fieldId('cidr')}
            label="IP restriction (CIDR)"
            hint={HINTS.cidr}
            {...errorOf('The IP restriction', errors.cidr)}
            describedBy={
              cidrWarning !== null || cidrUnchecked !== null ? `${id}-cidr-warning` : undefined
            }
            after={
              // Announced as it appears while typing; present (empty) before, so it is heard.
              <div aria-live="polite">
                {cidrWarning && (
                  <p id={`${id}-cidr-warning`} className="notice warning">
                    {cidrWarning}
                  </p>
                )}
                {cidrUnchecked && (
                  <p id={`${id}-cidr-warning`} className="hint">
                    {cidrUnchecked}
                  </p>
                )}
              </div>
            }
          >
            {(control) => (
              <input
                {...control}
                autoComplete="off"
                spellCheck={false}
                {...form.register('cidr')}
              />
            )}
          </FormField>
        )}
      </div>
      <div className="checkbox-field">
        <input id={`${id}-custom_image`} type="checkbox" {...form.register('custom_image')} />
        <label htmlFor={`${id}-custom_image`}>Show the account&apos;s custom image banner</label>
      </div>
      {kind === 'new' && (
        <div className="checkbox-field">
          <input
            id={`${id}-welcome_email`}
            type="checkbox"
            aria-describedby={`${id}-welcome_email-note`}
            {...form.register('welcome_email')}
          />
          <label htmlFor={`${id}-welcome_email`}>{welcome.label}</label>
          <p id={`${id}-welcome_email-note`} className="hint" aria-live="polite">
            {welcome.note}
          </p>
        </div>
      )}

      <div className="actions" role="group" aria-label="Permission presets">
        <span className="hint">Presets:</span>
        {PERMISSION_PRESETS.map((preset) => (
          <button
            key={preset.name}
            type="button"
            className="button small"
            onClick={() => applyPreset(preset.permissions)}
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
                options={group.items.map((item) =>
                  keptLimits.includes(item.value)
                    ? { ...item, label: item.value, meaning: KEPT_MEANING, disabled: true }
                    : { ...item, label: item.value },
                )}
                value={field.value.filter((p) => group.items.some((item) => item.value === p))}
                onChange={(chosen) =>
                  field.onChange([
                    ...field.value.filter((p) => !group.items.some((item) => item.value === p)),
                    ...chosen,
                  ])
                }
              />
            ))}
            <UnknownValues
              legend="Permissions this dashboard does not know"
              known={PERMISSIONS}
              read={defaultValues.permissions}
              value={field.value}
              onChange={field.onChange}
              id={fieldId('permissions')}
              {...errorOf('The permissions', errors.permissions)}
            />
          </div>
        )}
      />
      <PermissionReach
        permissions={permissions}
        global={groupLevel}
        subject={fields.description ? 'a key' : 'this administrator'}
      />
      {limitsLists && (
        <Controller
          control={form.control}
          name="limit_lists"
          render={({ field }) =>
            groupLevel ? (
              <LinesField
                id={fieldId('limit_lists')}
                label="Lists this administrator is limited to"
                hint="One list name per line (global administrators are not tied to one account)."
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                {...errorOf('The list limit', errors.limit_lists)}
              />
            ) : (
              <LimitListsPicker
                accountId={accountId}
                id={fieldId('limit_lists')}
                value={field.value}
                onChange={field.onChange}
                {...errorOf('The list limit', errors.limit_lists)}
              />
            )
          }
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
              id={fieldId('limit_metadata')}
              value={field.value}
              onChange={field.onChange}
              {...errorOf('The custom-field limit', errors.limit_metadata)}
            />
          )}
        />
      )}
      <Controller
        control={form.control}
        name="notifications"
        render={({ field }) => (
          <div className="stack">
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
            <UnknownValues
              legend="Notifications this dashboard does not know"
              known={NOTIFICATIONS}
              read={defaultValues.notifications}
              value={field.value}
              onChange={field.onChange}
              id={fieldId('notifications')}
              {...errorOf('The notifications', errors.notifications)}
            />
          </div>
        )}
      />
      <FormActions
        formError={formError}
        pending={pending}
        submitLabel={submitLabel}
        onCancel={onCancel}
      />
    </form>
  );
}

const HINTS = {
  password: `At least ${String(PASSWORD_MIN_LENGTH)} characters; hand it over in person or by phone, not in the same email as the username. Empty: no change.`,
  // A new person has no password to keep: without one they cannot sign in until given one.
  newPassword: `At least ${String(PASSWORD_MIN_LENGTH)} characters; hand it over in person or by phone, not in the same email as the username. Empty: they cannot sign in until they are given one.`,
  // The reference server's welcome email carries a link to choose one (issue 27 item 4).
  newPasswordOrLink: `Optional: leave it empty and they choose their own with the welcome email’s link. Else at least ${String(PASSWORD_MIN_LENGTH)} characters, handed over in person or by phone.`,
  cidr: 'Optional. Requests with this administrator’s API keys are refused from other addresses, e.g. 203.0.113.0/24. Make sure it includes the address you work from.',
};

/**
 * The values the administrator was read with that the spec does not name (spec §2.6: a newer
 * server's), ticked as read: the form refuses to save them (writes take only the spec's), so
 * they are shown to be unticked rather than hidden or dropped.
 */
function UnknownValues({
  legend,
  known,
  read,
  value,
  onChange,
  id,
  error,
  announce,
}: {
  legend: string;
  known: readonly string[];
  read: readonly string[];
  value: string[];
  onChange: (value: string[]) => void;
  /** The form refuses only these values, so their error is shown with them. */
  id: string;
  error: string | undefined;
  announce: boolean;
}) {
  const other = unknownValues(read, known);
  if (other.length === 0) return null;
  return (
    <div>
      <CheckboxGroup
        legend={legend}
        options={other.map((name) => ({ value: name, label: name }))}
        value={value.filter((name) => other.includes(name))}
        onChange={(chosen) =>
          onChange([...value.filter((name) => !other.includes(name)), ...chosen])
        }
        describedBy={error ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} error={error} announce={announce} />
    </div>
  );
}

/** SECURITY.md 32: a confined principal makes only administrators confined as narrowly. */
const KEPT_MEANING =
  'Kept: you are limited yourself, so whoever you make or change is limited as narrowly.';

/** The account's lists the principal reaches (spec §2.6), to limit the administrator to. */
function LimitListsPicker({
  accountId,
  id,
  value,
  onChange,
  error,
  announce,
}: {
  accountId: AccountId;
  id: string;
  value: string[];
  onChange: (value: string[]) => void;
  error: string | undefined;
  announce: boolean;
}) {
  const powers = usePermissions();
  const lists = useQuery(listQueries.list(accountId));
  if (lists.isPending) return <p role="status">Loading the account’s lists…</p>;
  if (lists.isError)
    return <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />;
  const offered = reachableLists(powers, lists.data);
  return (
    <div>
      {offered.length === 0 ? (
        <p>The account has no lists to limit this administrator to.</p>
      ) : (
        <CheckboxGroup
          legend="Lists this administrator is limited to"
          options={offered.map((list) => ({
            value: list.name,
            label: list.name,
            meaning: list.description || undefined,
          }))}
          value={value}
          onChange={onChange}
          describedBy={error ? `${id}-error` : undefined}
        />
      )}
      <FieldError id={`${id}-error`} error={error} announce={announce} />
    </div>
  );
}
