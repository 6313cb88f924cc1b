import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import type { Permission } from '../../../../api/constants.ts';
import { callerQueries } from '../../../lib/caller-queries.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { LIMITS, limitsToKeep } from '../model/caller-bounds.ts';
import {
  ADMINISTRATOR_FORM_FIELDS,
  administratorFormSchema,
  versionFields,
  type AdministratorFormOutput,
  type AdministratorFormValues,
  type AdministratorKind,
} from '../model/administrator-form.ts';
import { cidrUncheckedNote, cidrWarning } from '../model/cidr-warning.ts';
import { welcomeEmailText } from '../model/welcome-email.ts';

/**
 * The administrator form's controller (logic apart from the view, as react-admin's ra-core does),
 * shared by create and edit (spec §2.6): the form with its version's fields (§9 rule 3), the
 * dirty state its dialog asks about, the presets, the `cidr` warning as it is typed, the limits a
 * confined principal must pass on (SECURITY.md 32), and the save, whose refusal goes on the field
 * it names (form kit) or above the buttons.
 */
export function useAdministratorForm({
  kind,
  defaultValues,
  onSubmit,
  onDirtyChange,
}: {
  kind: AdministratorKind;
  defaultValues: AdministratorFormValues;
  onSubmit: (values: AdministratorFormOutput) => Promise<unknown>;
  onDirtyChange: ((dirty: boolean) => void) | undefined;
}) {
  const keep = limitsToKeep(usePermissions());
  const { form, serverErrors } = useKitForm({
    schema: administratorFormSchema(kind),
    defaultValues: withLimits(defaultValues, keep),
    serverFields: ADMINISTRATOR_FORM_FIELDS,
    onDirtyChange,
  });

  const fields = versionFields(kind);
  const permissions = useWatch({ control: form.control, name: 'permissions' });
  const cidr = useWatch({ control: form.control, name: 'cidr' });
  const password = useWatch({ control: form.control, name: 'password' });
  const sendWelcome = useWatch({ control: form.control, name: 'welcome_email' });
  const callerInfo = useQuery(callerQueries.self());
  const caller = fields.cidr ? callerInfo.data : undefined;

  const submit = form.handleSubmit(async (values) => {
    serverErrors.clear();
    try {
      await onSubmit(values);
    } catch (error) {
      serverErrors.place(error);
    }
  });

  return {
    form,
    fields,
    submit,
    formError: serverErrors.formError,
    // A password for the server's sign-in page: the reference server takes one (feature-detected
    // by its `caller.get` extension); spec v2 lists `password` for version 1 only.
    passwords: fields.password && callerInfo.data?.supported === true,
    /** The permissions ticked now (what they open is shown before saving). */
    permissions,
    limitsLists: permissions.includes('limit_lists'),
    limitsMetadata: permissions.includes('limit_metadata'),
    /** The limit permissions a confined principal passes on: shown ticked, not offered to untick. */
    keptLimits: keep.permissions,
    // The warning when the range shuts out the address in use; a note when that address is unknown.
    cidrWarning: caller ? cidrWarning(cidr, caller.address) : null,
    cidrUnchecked: caller?.address === null ? cidrUncheckedNote(cidr, caller.supported) : null,
    /** What the welcome email will do, as the form stands (issue 27 item 4). */
    welcome: welcomeEmailText({
      linkDays: callerInfo.data?.welcome_email?.password_link_days ?? null,
      send: sendWelcome,
      passwordGiven: password !== '',
    }),
    /** A preset replaces the permissions, keeping the limits. */
    applyPreset: (preset: readonly Permission[]) =>
      form.setValue(
        'permissions',
        [...preset, ...form.getValues('permissions').filter((p) => LIMITS.has(p))],
        { shouldDirty: true },
      ),
  };
}

/**
 * A confined principal makes only administrators confined as narrowly (SECURITY.md 32): a new one
 * starts with its limits and all of its lists and fields, which the form may narrow.
 */
function withLimits(
  values: AdministratorFormValues,
  keep: ReturnType<typeof limitsToKeep>,
): AdministratorFormValues {
  const missing = keep.permissions.filter((p) => !values.permissions.includes(p));
  if (missing.length === 0) return values;
  return {
    ...values,
    permissions: [...values.permissions, ...missing],
    limit_lists: values.limit_lists.length > 0 ? values.limit_lists : [...(keep.lists ?? [])],
    limit_metadata:
      values.limit_metadata.length > 0 ? values.limit_metadata : [...(keep.fields ?? [])],
  };
}
