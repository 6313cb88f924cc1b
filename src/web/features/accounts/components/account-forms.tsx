import { useId } from 'react';
import { SUBSCRIPTION_MODES } from '../../../../api/constants.ts';
import type { AccountDetail } from '../../../../api/schemas/account.ts';
import { FormActions } from '../../../components/form/form-actions.tsx';
import { FieldError, FormField } from '../../../components/form/form-field.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';
import { useAccountSettingsEdit, useNewAccount } from '../controllers/use-account-forms.ts';
import {
  NOTIFY_APPROVAL_MEANINGS,
  SUBSCRIPTION_MEANINGS,
  type AccountSettingsForm,
  type NewAccountForm,
} from '../model/account-form.ts';

/**
 * The forms of the account dialogs (account-dialogs.tsx), loaded when a dialog first opens; the
 * logic is their controllers' (controllers/use-account-forms.ts).
 */
export interface AccountFormProps {
  onDone: () => void;
  onDirtyChange: (dirty: boolean) => void;
}

/** Spec §4.7 create: name, description, initial domain and initial administrator. */
export function CreateAccountForm({ onDone, onDirtyChange }: AccountFormProps) {
  const { form, submit, pending, formError } = useNewAccount(onDone, onDirtyChange);
  const id = useId();
  const errors = form.formState.errors;
  const input = (
    name: keyof NewAccountForm,
    label: string,
    extra: { type?: string; hint?: string; initialFocus?: boolean } = {},
  ) => (
    <FormField
      id={`${id}-${name}`}
      label={label}
      hint={extra.hint}
      {...errorOf(label, errors[name])}
    >
      {(control) => (
        <input
          {...control}
          type={extra.type ?? 'text'}
          autoComplete="off"
          data-initial-focus={extra.initialFocus ? true : undefined}
          {...form.register(name)}
        />
      )}
    </FormField>
  );
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
      <FormActions
        formError={formError}
        pending={pending}
        submitLabel="Create the account"
        pendingLabel="Creating…"
        onCancel={onDone}
      />
    </form>
  );
}

/**
 * Spec §4.7 update of every §2.7 field. `ownAccount`: the account's own administrators' page,
 * where the name is shown, not changed (an operator's, as the reference server has it), and
 * Cancel (`onCancel`, else `onDone`) puts the stored values back.
 */
export function AccountSettings({
  account,
  ownAccount = false,
  onDone,
  onCancel = onDone,
  onDirtyChange,
}: AccountFormProps & { account: AccountDetail; ownAccount?: boolean; onCancel?: () => void }) {
  const { form, submit, zones, pending, formError } = useAccountSettingsEdit(
    account,
    onDone,
    onDirtyChange,
  );
  const id = useId();
  const errors = form.formState.errors;
  /** A labelled field with its hint and error, around an `<input>` or a `<textarea>`. */
  const field = (
    name: keyof AccountSettingsForm,
    label: string,
    hint: string | undefined,
    Control: 'input' | 'textarea',
    readOnly = false,
  ) => (
    <FormField id={`${id}-${name}`} label={label} hint={hint} {...errorOf(label, errors[name])}>
      {(control) => (
        <Control
          {...control}
          {...(Control === 'input' ? { autoComplete: 'off' } : { rows: 3, spellCheck: false })}
          readOnly={readOnly}
          {...form.register(name)}
        />
      )}
    </FormField>
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
  // A value the choices do not hold (another server's, spec §2.7) is shown, not the first choice.
  const unknown = (
    name: 'subscriptions' | 'unsubscriptions' | 'notify_approval',
    known: string[],
  ) => {
    const value = form.formState.defaultValues?.[name];
    return value === undefined || known.includes(value) ? null : value;
  };
  const select = (name: 'subscriptions' | 'unsubscriptions', label: string) => {
    const other = unknown(name, [...SUBSCRIPTION_MODES]);
    return (
      <FormField id={`${id}-${name}`} label={label} {...errorOf(label, errors[name])}>
        {(control) => (
          <select {...control} {...form.register(name)}>
            {other !== null && <option value={other}>Unknown value ({other})</option>}
            {SUBSCRIPTION_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {SUBSCRIPTION_MEANINGS[mode]}
              </option>
            ))}
          </select>
        )}
      </FormField>
    );
  };
  const otherNotify = unknown(
    'notify_approval',
    NOTIFY_APPROVAL_MEANINGS.map(({ value }) => String(value)),
  );

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Account settings">
      <div className="form-grid">
        {ownAccount
          ? field('name', 'Name', 'Changed by an operator of the group.', 'input', true)
          : text('name', 'Name')}
        {text('description', 'Description')}
        <FormField
          id={`${id}-timezone`}
          label="Time zone"
          hint="Type to search, e.g. Europe/Paris."
          {...errorOf('Time zone', errors.timezone)}
          after={
            <datalist id={`${id}-zones`}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          }
        >
          {(control) => (
            <input
              {...control}
              list={`${id}-zones`}
              autoComplete="off"
              spellCheck={false}
              {...form.register('timezone')}
            />
          )}
        </FormField>
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
        {otherNotify !== null && (
          <div className="checkbox-field">
            <input
              id={`${id}-notify-other`}
              type="radio"
              value={otherNotify}
              {...form.register('notify_approval')}
            />
            <label htmlFor={`${id}-notify-other`}>{otherNotify}: unknown value</label>
          </div>
        )}
        <FieldError
          id={`${id}-notify-error`}
          {...errorOf('Messages held for approval', errors.notify_approval)}
        />
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
      <FormActions
        formError={formError}
        pending={pending}
        submitLabel="Save the settings"
        onCancel={onCancel}
      />
    </form>
  );
}
