import { useState } from 'react';
import type { AccountDetail } from '../../../../api/schemas/account.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { useCreateAccount, useUpdateAccount } from '../api/account-mutations.ts';
import {
  ACCOUNT_SETTINGS_FIELDS,
  AccountSettingsForm,
  NEW_ACCOUNT_FIELDS,
  NewAccountForm,
  knownTimeZones,
  settingsOf,
  toAccountCreate,
  toAccountUpdate,
} from '../model/account-form.ts';

/**
 * The new-account dialog's controller (logic apart from the view, as react-admin's ra-core does):
 * the form checked by the contract's rules (spec §4.7 create), its dirty state for the dialog,
 * and the create, whose refusal goes on the field it names (form kit) or above the buttons.
 */
export function useNewAccount(onDone: () => void, onDirtyChange: (dirty: boolean) => void) {
  const create = useCreateAccount();
  const { form, serverErrors } = useKitForm({
    schema: NewAccountForm,
    defaultValues: { name: '', description: '', domain: '', administrator: '' },
    serverFields: NEW_ACCOUNT_FIELDS,
    onDirtyChange,
  });
  const submit = form.handleSubmit((values) => {
    serverErrors.clear();
    create.mutate(toAccountCreate(values), {
      onSuccess: onDone,
      onError: (error) => void serverErrors.place(error),
    });
  });
  return { form, submit, pending: create.isPending, formError: serverErrors.formError };
}

/**
 * The account settings dialog's controller: every §2.7 field of the account (spec §4.7 update),
 * the expressions checked as they are typed, the dirty state for the dialog, and the save, whose
 * refusal goes on the field it names (form kit) or above the buttons.
 */
export function useAccountSettingsEdit(
  account: AccountDetail,
  onDone: () => void,
  onDirtyChange: (dirty: boolean) => void,
) {
  const update = useUpdateAccount();
  const { form, serverErrors } = useKitForm({
    schema: AccountSettingsForm,
    defaultValues: settingsOf(account),
    // restrict_contact expressions are checked as they are typed.
    mode: 'onChange',
    serverFields: ACCOUNT_SETTINGS_FIELDS,
    onDirtyChange,
  });
  const [zones] = useState(knownTimeZones);
  const submit = form.handleSubmit((values) => {
    serverErrors.clear();
    update.mutate(
      { id: account.id, input: toAccountUpdate(values) },
      { onSuccess: onDone, onError: (error) => void serverErrors.place(error) },
    );
  });
  return { form, submit, zones, pending: update.isPending, formError: serverErrors.formError };
}
