import { useState } from 'react';
import type { CustomField, FieldAdministrator } from '../../../../api/schemas/field.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { lazyForm } from '../../../components/form/lazy-form.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useDefineField, useDeleteField, useRenameField } from '../api/field-mutations.ts';
import {
  administratorLabel,
  formValuesOf,
  toCreateInput,
  toUpdateInput,
} from '../model/field-form.ts';

/** The form loads when a dialog first opens, or as its button is pointed at: the page has none. */
export const FieldForm = lazyForm(() =>
  import('./field-form.tsx').then((module) => module.FieldForm),
);

/** A dialog's form: whether it holds changes, and closing, which forgets the last answer. */
function useFormDialog(mutation: { reset: () => void }, onClose: () => void) {
  const [dirty, setDirty] = useState(false);
  const close = () => {
    mutation.reset();
    setDirty(false);
    onClose();
  };
  return { dirty, setDirty, close };
}

/** What the page says once a change is saved (its status line). */
export type Done = (message: string) => void;

/** Defines a field (`fields.create`). */
export function DefineFieldDialog({
  accountId,
  open,
  onClose,
  onDone,
}: {
  accountId: AccountId;
  open: boolean;
  onClose: () => void;
  onDone: Done;
}) {
  const define = useDefineField(accountId);
  const { dirty, setDirty, close } = useFormDialog(define, onClose);
  return (
    <Dialog open={open} onClose={close} title="Define a custom field" dirty={dirty}>
      <FieldForm
        defaultValues={formValuesOf(null)}
        submitLabel="Define the field"
        pending={define.isPending}
        onDirtyChange={setDirty}
        onSubmit={(values) =>
          define.mutateAsync(toCreateInput(values)).then((field) => {
            close();
            onDone(`Defined ${field.name}: contacts show it as “${field.key}”.`);
          })
        }
        onCancel={close}
      />
    </Dialog>
  );
}

/** A dialog about one field, open while `field` is not null. */
interface FieldDialogProps {
  accountId: AccountId;
  field: CustomField | null;
  onClose: () => void;
  onDone: Done;
}

/** Renames a field (`fields.update`): values stay, the limits that name it follow. */
export function RenameFieldDialog({ accountId, field, onClose, onDone }: FieldDialogProps) {
  const rename = useRenameField(accountId);
  const { dirty, setDirty, close } = useFormDialog(rename, onClose);
  return (
    <Dialog
      open={field !== null}
      onClose={close}
      title={`Rename ${field?.name ?? ''}`}
      dirty={dirty}
    >
      {field && (
        <>
          <p>
            {field.contacts === 0
              ? 'No contact has a value yet.'
              : `The values of ${countOf(field.contacts, 'contact')} stay with the field.`}{' '}
            <LimitsNote administrators={field.administrators} verb="follow the new name" />
          </p>
          <FieldForm
            defaultValues={formValuesOf(field)}
            submitLabel="Save the field"
            pending={rename.isPending}
            onDirtyChange={setDirty}
            onSubmit={(values) => {
              const input = toUpdateInput(field, values);
              if (Object.keys(input).length === 0) {
                close();
                return Promise.resolve();
              }
              return rename.mutateAsync({ id: field.id, input }).then((renamed) => {
                close();
                onDone(`Saved ${renamed.name}: contacts show it as “${renamed.key}”.`);
              });
            }}
            onCancel={close}
          />
        </>
      )}
    </Dialog>
  );
}

/**
 * Deletes a field (`fields.delete`) after saying what goes with it: every contact's value, and the
 * field from every administrator's limit_metadata. With values, its name is typed to confirm.
 */
export function DeleteFieldDialog({ accountId, field, onClose, onDone }: FieldDialogProps) {
  const remove = useDeleteField(accountId);
  const { close } = useFormDialog(remove, onClose);
  const limited = field?.administrators?.filter((administrator) => administrator.limited) ?? [];
  return (
    <ConfirmDialog
      open={field !== null}
      title={`Delete the field ${field?.name ?? ''}?`}
      confirmLabel="Delete the field"
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      typeToConfirm={
        field && field.contacts > 0
          ? { value: field.name, label: `Type ${field.name} to delete it and its values` }
          : undefined
      }
      onClose={close}
      onConfirm={() => {
        if (!field) return;
        remove.mutate(field.id, {
          onSuccess: ({ field: gone }) => {
            close();
            const lost = gone.administrators?.length ?? 0;
            onDone(
              `Deleted ${gone.name}: ${countOf(gone.contacts, 'contact')} lost ${gone.contacts === 1 ? 'its' : 'their'} value` +
                (lost > 0
                  ? `, and ${countOf(lost, 'administrator')} lost it from their limits.`
                  : '.'),
            );
          },
        });
      }}
    >
      {field && (
        <>
          <p>
            {field.contacts === 0
              ? 'No contact has a value for it.'
              : `${countOf(field.contacts, 'contact')} ${field.contacts === 1 ? 'has a value' : 'have a value'}: the values are deleted with the field, for good.`}
          </p>
          <p>
            <LimitsNote administrators={field.administrators} verb="lose it" />
            {limited.length > 0 &&
              ' An administrator limited to this field alone then sees no custom field at all.'}
          </p>
        </>
      )}
    </ConfirmDialog>
  );
}

/** Who a field's limit concerns, in words; unknown to a caller who may not read administrators. */
function LimitsNote({
  administrators,
  verb,
}: {
  administrators: FieldAdministrator[] | undefined;
  verb: string;
}) {
  if (administrators === undefined)
    return <>Administrators limited to it (which only a superadmin may see) {verb}.</>;
  if (administrators.length === 0) return <>No administrator is limited to it.</>;
  return (
    <>
      {administrators.length === 1
        ? 'This administrator’s limit names it and will '
        : 'These administrators’ limits name it and will '}
      {verb}: {administrators.map(administratorLabel).join(', ')}.
    </>
  );
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
