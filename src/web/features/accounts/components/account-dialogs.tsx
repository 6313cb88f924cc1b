import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { SUBSCRIPTION_MODES } from '../../../../api/constants.ts';
import type { Account, AccountDetail } from '../../../../api/schemas/account.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { applyServerError } from '../../../lib/form-kit.ts';
import { serverFieldError } from '../../../lib/server-field-error.ts';
import { useCreateAccount, useDeleteAccount, useUpdateAccount } from '../api/account-mutations.ts';
import { accountQueries } from '../api/account-queries.ts';
import {
  ACCOUNT_SETTINGS_FIELDS,
  AccountSettingsForm,
  NOTIFY_APPROVAL_MEANINGS,
  NewAccountForm,
  SUBSCRIPTION_MEANINGS,
  knownTimeZones,
  settingsOf,
  toAccountCreate,
  toAccountUpdate,
} from '../model/account-form.ts';

const NEW_ACCOUNT_FIELDS = ['name', 'description', 'domain', 'administrator'] as const;

/** Spec §4.7 create: name, description, initial domain and initial administrator. */
export function CreateAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  // Typed and not created yet: Escape and the close button ask first (form kit).
  const [dirty, setDirty] = useState(false);
  const close = () => {
    setDirty(false);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title="New account" dirty={dirty}>
      <CreateAccountForm onDone={close} onDirtyChange={setDirty} />
    </Dialog>
  );
}

function CreateAccountForm({
  onDone,
  onDirtyChange,
}: {
  onDone: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const create = useCreateAccount();
  const form = useForm<NewAccountForm>({
    resolver: zodResolver(NewAccountForm),
    defaultValues: { name: '', description: '', domain: '', administrator: '' },
  });
  const { isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const id = useId();
  const errors = form.formState.errors;
  const submit = form.handleSubmit((values) =>
    create.mutate(toAccountCreate(values), {
      onSuccess: onDone,
      onError: (error) => applyServerError(error, NEW_ACCOUNT_FIELDS, form.setError),
    }),
  );
  const input = (
    name: (typeof NEW_ACCOUNT_FIELDS)[number],
    label: string,
    extra: { type?: string; hint?: string; initialFocus?: boolean } = {},
  ) => {
    const error = errors[name];
    const described = [error ? `${id}-${name}-error` : '', extra.hint ? `${id}-${name}-hint` : '']
      .filter(Boolean)
      .join(' ');
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <input
          id={`${id}-${name}`}
          type={extra.type ?? 'text'}
          autoComplete="off"
          data-initial-focus={extra.initialFocus ? true : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
          {...form.register(name)}
        />
        {extra.hint && (
          <p id={`${id}-${name}-hint`} className="hint">
            {extra.hint}
          </p>
        )}
        {error && (
          <p id={`${id}-${name}-error`} className="field-error">
            {label} {error.message}.
          </p>
        )}
      </div>
    );
  };
  const onFieldServerError = create.isError && serverFieldError(create.error, NEW_ACCOUNT_FIELDS);
  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="New account">
      {input('name', 'Name', {
        hint: 'Letters, digits, underscore, period and hyphen; at most 64 characters.',
        initialFocus: true,
      })}
      {input('description', 'Description')}
      {input('domain', 'Initial domain', { hint: 'Optional, e.g. lists.example.org.' })}
      {input('administrator', 'Initial administrator (email)', {
        type: 'email',
        hint: 'Optional: this person becomes the account’s superadmin.',
      })}
      {create.isError && !onFieldServerError && <ErrorMessage error={create.error} />}
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create the account'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Spec §4.7 update of every §2.7 field; the details are read when the dialog opens. */
export function EditAccountDialog({
  account,
  onClose,
}: {
  account: Account | null;
  onClose: () => void;
}) {
  // Edited and not saved: Escape and the close button ask first (form kit).
  const [dirty, setDirty] = useState(false);
  const close = () => {
    setDirty(false);
    onClose();
  };
  return (
    <Dialog
      open={account !== null}
      onClose={close}
      title={`Settings of ${account?.name ?? ''}`}
      className="wide"
      dirty={dirty}
    >
      {account && <AccountDetails account={account} onDone={close} onDirtyChange={setDirty} />}
    </Dialog>
  );
}

interface SettingsProps {
  onDone: () => void;
  onDirtyChange: (dirty: boolean) => void;
}

function AccountDetails({ account, ...props }: SettingsProps & { account: Account }) {
  const detail = useQuery(accountQueries.detail(account.id));
  if (detail.isPending) return <p role="status">Loading the account’s settings…</p>;
  if (detail.isError)
    return <ErrorMessage error={detail.error} onRetry={() => void detail.refetch()} />;
  return <AccountSettings account={detail.data} {...props} />;
}

function AccountSettings({
  account,
  onDone,
  onDirtyChange,
}: SettingsProps & { account: AccountDetail }) {
  const update = useUpdateAccount();
  const form = useForm<AccountSettingsForm>({
    resolver: zodResolver(AccountSettingsForm),
    defaultValues: settingsOf(account),
    // restrict_contact expressions are checked as they are typed.
    mode: 'onChange',
  });
  const { isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const id = useId();
  const [zones] = useState(knownTimeZones);
  const errors = form.formState.errors;
  const submit = form.handleSubmit((values) =>
    update.mutate(
      { id: account.id, input: toAccountUpdate(values) },
      {
        onSuccess: onDone,
        onError: (error) => applyServerError(error, ACCOUNT_SETTINGS_FIELDS, form.setError),
      },
    ),
  );
  const describe = (name: keyof AccountSettingsForm, hint?: boolean) =>
    [errors[name] ? `${id}-${name}-error` : '', hint ? `${id}-${name}-hint` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const errorOf = (name: keyof AccountSettingsForm, label: string) => {
    const error = errors[name];
    return (
      error && (
        <p id={`${id}-${name}-error`} className="field-error">
          {label}: {error.message}.
        </p>
      )
    );
  };
  /** A labelled field with its hint and error, around an `<input>` or a `<textarea>`. */
  const field = (
    name: keyof AccountSettingsForm,
    label: string,
    hint: string | undefined,
    Control: 'input' | 'textarea',
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <Control
        id={`${id}-${name}`}
        {...(Control === 'input' ? { autoComplete: 'off' } : { rows: 3, spellCheck: false })}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={describe(name, Boolean(hint))}
        {...form.register(name)}
      />
      {hint && (
        <p id={`${id}-${name}-hint`} className="hint">
          {hint}
        </p>
      )}
      {errorOf(name, label)}
    </div>
  );
  const text = (name: keyof AccountSettingsForm, label: string, hint?: string) =>
    field(name, label, hint, 'input');
  const area = (name: keyof AccountSettingsForm, label: string, hint?: string) =>
    field(name, label, hint, 'textarea');
  const box = (name: keyof AccountSettingsForm, label: string) => (
    <div className="checkbox-field">
      <input id={`${id}-${name}`} type="checkbox" {...form.register(name)} />
      <label htmlFor={`${id}-${name}`}>{label}</label>
    </div>
  );
  const select = (name: 'subscriptions' | 'unsubscriptions', label: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <select id={`${id}-${name}`} {...form.register(name)}>
        {SUBSCRIPTION_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {SUBSCRIPTION_MEANINGS[mode]}
          </option>
        ))}
      </select>
    </div>
  );
  const serverOnField = update.isError && serverFieldError(update.error, ACCOUNT_SETTINGS_FIELDS);

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Account settings">
      <div className="form-grid">
        {text('name', 'Name')}
        {text('description', 'Description')}
        <div className="field">
          <label htmlFor={`${id}-timezone`}>Time zone</label>
          <input
            id={`${id}-timezone`}
            list={`${id}-zones`}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.timezone ? true : undefined}
            aria-describedby={describe('timezone', true)}
            {...form.register('timezone')}
          />
          <datalist id={`${id}-zones`}>
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
          <p id={`${id}-timezone-hint`} className="hint">
            Type to search, e.g. Europe/Paris.
          </p>
          {errorOf('timezone', 'Time zone')}
        </div>
        {text('custom_image', 'Custom image URL')}
        {select('subscriptions', 'Subscriptions (default for lists)')}
        {select('unsubscriptions', 'Unsubscriptions (default for lists)')}
      </div>
      <fieldset className="checkbox-group">
        <legend>Messages held for approval</legend>
        {NOTIFY_APPROVAL_MEANINGS.map(({ value, meaning }) => (
          <div key={value} className="checkbox-field">
            <input
              id={`${id}-notify-${value}`}
              type="radio"
              value={String(value)}
              {...form.register('notify_approval')}
            />
            <label htmlFor={`${id}-notify-${value}`}>
              {value}: {meaning}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="stack">
        {box('list_delegation', 'List admins may delegate access to their lists')}
        {box('require_list_approval', 'New lists need approval')}
        {box(
          'send_welcome_message_confirmation',
          'Email the welcome message when a member confirms',
        )}
        {box(
          'send_welcome_message_contacts',
          'Email the welcome message to contacts added to the account',
        )}
      </div>
      {area('welcome_message', 'Welcome message')}
      {text('confirmation_subject', 'Confirmation subject')}
      {area('confirmation_message', 'Confirmation message')}
      {area(
        'restrict_contact',
        'Addresses allowed in the account',
        'One regular expression per line; an address added to the account that matches none is rejected. Empty: no restriction.',
      )}
      {area(
        'restrict_contact_subscription',
        'Addresses allowed to subscribe',
        'One regular expression per line; a subscription request from an address that matches none is rejected.',
      )}
      {update.isError && !serverOnField && <ErrorMessage error={update.error} />}
      <div className="actions">
        <button type="submit" className="button primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save the settings'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Spec §4.7 delete cascades to everything in the account: the name is typed to confirm. */
export function DeleteAccountDialog({
  account,
  onClose,
}: {
  account: Account | null;
  onClose: () => void;
}) {
  const remove = useDeleteAccount();
  const close = () => {
    remove.reset();
    onClose();
  };
  const name = account?.name ?? '';
  return (
    <ConfirmDialog
      open={account !== null}
      title={`Delete the account ${name}?`}
      confirmLabel="Delete the account"
      typeToConfirm={{ value: name, label: `Type ${name} to confirm` }}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onClose={close}
      onConfirm={() => account && remove.mutate(account.id, { onSuccess: close })}
    >
      <p className="notice warning">
        Every contact, list, message, administrator and API key of {name} is deleted with it. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
