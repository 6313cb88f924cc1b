import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { EXPIRY_MONTHS } from '../../../../api/constants.ts';
import type {
  Administrator,
  AdministratorUpdate,
  RetrievedKey,
} from '../../../../api/schemas/administrator.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { lazyForm } from '../../../components/form/lazy-form.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { callerQueries } from '../../../lib/caller-queries.ts';
import {
  useCreateAdministrator,
  useDeleteAdministrator,
  useRetrieveKey,
  useUpdateAdministrator,
} from '../api/administrator-mutations.ts';
import { formValuesOf, kindOf, toCreateInput, toUpdateInput } from '../model/administrator-form.ts';
import { createdNote } from '../model/welcome-email.ts';
import { administratorName, isKey } from './administrator-name.ts';
import { FormField } from '../../../components/form/form-field.tsx';

/**
 * The form loads when a dialog first opens, or as its button is pointed at (issue 17 item 9): the
 * administrators page itself has no form.
 */
export const AdministratorForm = lazyForm(() =>
  import('./administrator-form.tsx').then((module) => module.AdministratorForm),
);

const NEW_KINDS = [
  { kind: 'new', label: 'A person, who signs in' },
  { kind: 'new-key', label: 'A program, with an API key' },
] as const;

/**
 * Spec §4.6 create: a person, named by an email address, who signs in (with the password given
 * here, on the reference server); or an API key for a program, named by its description (§2.6),
 * whose key is retrieved next (`onKeyCreated`). A person's creation is said (`onPersonCreated`):
 * where their welcome email and its link went (issue 27 item 4).
 */
export function CreateAdministratorDialog({
  accountId,
  groupLevel,
  open,
  onClose,
  onKeyCreated,
  onPersonCreated,
}: {
  accountId: AccountId;
  groupLevel: boolean;
  open: boolean;
  onClose: () => void;
  onKeyCreated: (administrator: Administrator) => void;
  onPersonCreated: (note: string) => void;
}) {
  const create = useCreateAdministrator(accountId);
  const linkDays = useQuery(callerQueries.self()).data?.welcome_email?.password_link_days ?? null;
  const [kind, setKind] = useState<'new' | 'new-key'>('new');
  const [dirty, setDirty] = useState(false);
  const id = useId();
  const close = () => {
    create.reset();
    setKind('new');
    setDirty(false);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title="New administrator" className="wide" dirty={dirty}>
      <fieldset className="radio-group">
        <legend>Who is it for?</legend>
        {NEW_KINDS.map((option) => (
          <div className="checkbox-field" key={option.kind}>
            <input
              id={`${id}-${option.kind}`}
              type="radio"
              name={`${id}-kind`}
              checked={kind === option.kind}
              onChange={() => setKind(option.kind)}
            />
            <label htmlFor={`${id}-${option.kind}`}>{option.label}</label>
          </div>
        ))}
      </fieldset>
      <AdministratorForm
        key={kind}
        accountId={accountId}
        groupLevel={groupLevel}
        kind={kind}
        defaultValues={formValuesOf(null)}
        submitLabel={kind === 'new' ? 'Create the administrator' : 'Create the API key'}
        onDirtyChange={setDirty}
        pending={create.isPending}
        onSubmit={(values) =>
          create.mutateAsync(toCreateInput(kind, values)).then((created) => {
            close();
            if (kind === 'new-key') onKeyCreated(created);
            else
              onPersonCreated(
                createdNote({
                  username: created.username ?? values.username.trim(),
                  linkDays,
                  send: values.welcome_email,
                  passwordGiven: values.password !== '',
                }),
              );
          })
        }
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
  self,
  onClose,
}: {
  accountId: AccountId;
  groupLevel: boolean;
  administrator: Administrator | null;
  /** The administrator is the one signed in: taking away its superadmin asks first. */
  self: boolean;
  onClose: () => void;
}) {
  const update = useUpdateAdministrator(accountId);
  const [demoting, setDemoting] = useState<{ input: AdministratorUpdate; done: () => void } | null>(
    null,
  );
  const [dirty, setDirty] = useState(false);
  const close = () => {
    update.reset();
    setDemoting(null);
    setDirty(false);
    onClose();
  };
  const kind = administrator ? kindOf(administrator) : 'person';
  const save = (input: AdministratorUpdate) =>
    administrator
      ? update.mutateAsync({ id: administrator.id, input }).then(close)
      : Promise.resolve();
  return (
    <Dialog
      open={administrator !== null}
      onClose={close}
      title={`Edit ${administrator ? administratorName(administrator) : ''}`}
      className="wide"
      dirty={dirty}
    >
      {administrator && (
        <AdministratorForm
          accountId={accountId}
          groupLevel={groupLevel}
          kind={kind}
          defaultValues={formValuesOf(administrator)}
          submitLabel="Save the administrator"
          onDirtyChange={setDirty}
          pending={update.isPending}
          onSubmit={(values) => {
            const input = toUpdateInput(kind, values);
            if (self && demotes(administrator, input))
              return new Promise<void>((done) => setDemoting({ input, done }));
            return save(input);
          }}
          onCancel={close}
        />
      )}
      <ConfirmDialog
        open={demoting !== null}
        title="Take superadmin away from yourself?"
        confirmLabel="Save without my superadmin"
        pending={update.isPending}
        error={update.isError ? update.error : null}
        onClose={() => {
          demoting?.done();
          setDemoting(null);
        }}
        // A refusal shows in this dialog (update.error).
        onConfirm={() => void save(demoting?.input ?? {}).catch(() => undefined)}
      >
        <p>
          You are signed in as this administrator. Without superadmin you can no longer manage
          administrators, and nobody can give it back but another superadmin.
        </p>
      </ConfirmDialog>
    </Dialog>
  );
}

export function DeleteAdministratorDialog({
  accountId,
  administrator,
  self,
  onClose,
}: {
  accountId: AccountId;
  administrator: Administrator | null;
  /** The administrator is the one signed in. */
  self: boolean;
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
      {self && (
        <p className="notice warning">
          This is you: you are signed in as this administrator. Deleting it ends your own access.
        </p>
      )}
      <p>
        {administrator && isKey(administrator)
          ? 'Programs using this API key lose access at once.'
          : 'This administrator and every API key retrieved for it lose access at once.'}{' '}
        This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/** A key that never expires is a choice, not the default: a leaked key then works forever. */
const DEFAULT_EXPIRY = '3';

/** The update takes superadmin away from an administrator that has it. */
function demotes(administrator: Administrator, input: AdministratorUpdate): boolean {
  return (
    administrator.permissions.includes('superadmin') &&
    input.permissions !== undefined &&
    !input.permissions.includes('superadmin')
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
  const [months, setMonths] = useState(DEFAULT_EXPIRY);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const id = useId();
  const close = () => {
    retrieve.reset();
    setMonths(DEFAULT_EXPIRY);
    setCopied(null);
    onClose();
  };
  const name = administrator ? administratorName(administrator) : '';
  const answer: RetrievedKey | undefined = retrieve.data;
  // The form that held the focus is gone: the focus goes on with the key, not to the page's body.
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (answer) copyRef.current?.focus();
  }, [answer]);
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
              ref={copyRef}
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
          <FormField id={`${id}-expiry`} label="Expires after">
            {(control) => (
              <select
                {...control}
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
            )}
          </FormField>
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
