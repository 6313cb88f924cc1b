import { useId, useState } from 'react';
import { EXPIRY_MONTHS } from '../../../../api/constants.ts';
import type { Administrator, RetrievedKey } from '../../../../api/schemas/administrator.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import {
  useCreateAdministrator,
  useDeleteAdministrator,
  useRetrieveKey,
  useUpdateAdministrator,
} from '../api/administrator-mutations.ts';
import { formValuesOf, kindOf, toCreateInput, toUpdateInput } from '../model/administrator-form.ts';
import { AdministratorForm } from './administrator-form.tsx';
import { administratorName, isKey } from './administrator-name.ts';

/** Spec §4.6 create: a person, named by an email address. */
export function CreateAdministratorDialog({
  accountId,
  groupLevel,
  open,
  onClose,
}: {
  accountId: AccountId;
  groupLevel: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const create = useCreateAdministrator(accountId);
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title="New administrator" className="wide">
      <AdministratorForm
        accountId={accountId}
        groupLevel={groupLevel}
        kind="new"
        defaultValues={formValuesOf(null)}
        submitLabel="Create the administrator"
        pending={create.isPending}
        onSubmit={(values) => create.mutateAsync(toCreateInput(values)).then(close)}
        onCancel={close}
      />
    </Dialog>
  );
}

/** Spec §4.6 update; the fields shown follow the administrator's API version (§9). */
export function EditAdministratorDialog({
  accountId,
  groupLevel,
  administrator,
  onClose,
}: {
  accountId: AccountId;
  groupLevel: boolean;
  administrator: Administrator | null;
  onClose: () => void;
}) {
  const update = useUpdateAdministrator(accountId);
  const close = () => {
    update.reset();
    onClose();
  };
  const kind = administrator ? kindOf(administrator) : 'person';
  return (
    <Dialog
      open={administrator !== null}
      onClose={close}
      title={`Edit ${administrator ? administratorName(administrator) : ''}`}
      className="wide"
    >
      {administrator && (
        <AdministratorForm
          accountId={accountId}
          groupLevel={groupLevel}
          kind={kind}
          defaultValues={formValuesOf(administrator)}
          submitLabel="Save the administrator"
          pending={update.isPending}
          onSubmit={(values) =>
            update
              .mutateAsync({ id: administrator.id, input: toUpdateInput(kind, values) })
              .then(close)
          }
          onCancel={close}
        />
      )}
    </Dialog>
  );
}

export function DeleteAdministratorDialog({
  accountId,
  administrator,
  onClose,
}: {
  accountId: AccountId;
  administrator: Administrator | null;
  onClose: () => void;
}) {
  const remove = useDeleteAdministrator(accountId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const name = administrator ? administratorName(administrator) : '';
  return (
    <ConfirmDialog
      open={administrator !== null}
      title={`Delete ${name}?`}
      confirmLabel="Delete the administrator"
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onClose={close}
      onConfirm={() => administrator && remove.mutate(administrator.id, { onSuccess: close })}
    >
      <p>
        {administrator && isKey(administrator)
          ? 'Programs using this API key lose access at once.'
          : 'This administrator and every API key retrieved for it lose access at once.'}{' '}
        This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/**
 * Spec §4.6 key retrieval. The key is shown once, in this dialog's memory only: closing it
 * forgets the key (spec §5.1 rule 3: keys are as sensitive as passwords).
 */
export function RetrieveKeyDialog({
  accountId,
  administrator,
  onClose,
}: {
  accountId: AccountId;
  administrator: Administrator | null;
  onClose: () => void;
}) {
  const retrieve = useRetrieveKey(accountId);
  const [months, setMonths] = useState('');
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const id = useId();
  const close = () => {
    retrieve.reset();
    setMonths('');
    setCopied(null);
    onClose();
  };
  const name = administrator ? administratorName(administrator) : '';
  const answer: RetrievedKey | undefined = retrieve.data;
  return (
    <Dialog open={administrator !== null} onClose={close} title={`API key for ${name}`}>
      {answer ? (
        <div className="stack">
          <p className="notice warning" role="alert">
            This key is as sensitive as a password: anyone holding it acts as {name}. It is shown
            only now; copy it to a safe place.
          </p>
          <div className="field">
            <p>The new key:</p>
            <code className="secret" data-testid="retrieved-key">
              {answer.key}
            </code>
          </div>
          <p>
            {answer.expiry
              ? `It expires on ${new Date(answer.expiry).toLocaleString()}.`
              : 'It never expires.'}
          </p>
          <div className="actions">
            <button
              type="button"
              className="button primary"
              onClick={() =>
                void navigator.clipboard.writeText(answer.key).then(
                  () => setCopied('yes'),
                  () => setCopied('failed'),
                )
              }
            >
              Copy the key
            </button>
            <button type="button" className="button" onClick={close}>
              Done
            </button>
          </div>
          <p role="status" className="hint">
            {copied === 'yes' && 'Copied to the clipboard.'}
            {copied === 'failed' && 'The browser refused to copy: select the key and copy it.'}
          </p>
        </div>
      ) : (
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            if (!administrator) return;
            const chosen = Number(months);
            retrieve.mutate({
              id: administrator.id,
              months: EXPIRY_MONTHS.find((m) => m === chosen),
            });
          }}
        >
          <p>
            A new key is issued for {name}, with the same permissions. Keys retrieved earlier keep
            working until they expire.
          </p>
          <div className="field">
            <label htmlFor={`${id}-expiry`}>Expires after</label>
            <select
              id={`${id}-expiry`}
              value={months}
              data-initial-focus
              onChange={(event) => setMonths(event.target.value)}
            >
              <option value="">Never</option>
              {EXPIRY_MONTHS.map((m) => (
                <option key={m} value={String(m)}>
                  {m === 1 ? '1 month' : `${m} months`}
                </option>
              ))}
            </select>
          </div>
          {retrieve.isError && <ErrorMessage error={retrieve.error} />}
          <div className="actions">
            <button type="submit" className="button primary" disabled={retrieve.isPending}>
              {retrieve.isPending ? 'Retrieving…' : 'Retrieve a new key'}
            </button>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
