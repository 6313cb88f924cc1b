import { useId, useState } from 'react';
import type { Membership } from '../../../../api/schemas/membership.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { SaveStatus } from '../../../components/form/save-status.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import {
  useCreateMembership,
  useDeleteMembership,
  useUpdateMembership,
} from '../../../lib/membership-mutations.ts';
import { useReachableLists } from '../../../lib/reach.ts';
import { FormField } from '../../../components/form/form-field.tsx';

/** Spec §2.3 `digest`: null keeps the address's setting, true forces the digest, false forbids it. */
const DIGEST_CHOICES = [
  { value: 'default', label: 'The address’s setting', digest: null },
  { value: 'digest', label: 'Daily digest', digest: true },
  { value: 'none', label: 'No digest', digest: false },
] as const;
type DigestChoice = (typeof DIGEST_CHOICES)[number]['value'];

function choiceOf(digest: boolean | null): DigestChoice {
  return digest === null ? 'default' : digest ? 'digest' : 'none';
}
function digestOf(choice: string): boolean | null {
  return DIGEST_CHOICES.find((c) => c.value === choice)?.digest ?? null;
}

function DigestSelect({
  id,
  value,
  onChange,
  disabled,
  label,
}: {
  id?: string;
  value: DigestChoice;
  onChange: (digest: boolean | null) => void;
  disabled?: boolean;
  label?: string;
}) {
  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(digestOf(event.target.value))}
    >
      {DIGEST_CHOICES.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/** A contact's lists: add to one of the account's lists, the digest override, remove. */
export function MembershipsSection({
  accountId,
  contactRef,
  memberships,
}: {
  accountId: AccountId;
  contactRef: string | number;
  memberships: Membership[];
}) {
  const remove = useDeleteMembership(accountId);
  const headingId = useId();
  const busy = (membership: Membership) =>
    remove.isPending && String(remove.variables) === String(membership.id);

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Lists</h2>
      <p className="hint">A digest choice is saved as soon as it is made.</p>
      {memberships.length === 0 ? (
        <p className="summary">Not on any list.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">List</th>
                <th scope="col">Digest</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {memberships.map((membership) => (
                <tr key={String(membership.id)}>
                  <th scope="row">{membership.list}</th>
                  <td>
                    <MembershipDigest accountId={accountId} membership={membership} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button small danger"
                      disabled={busy(membership)}
                      onClick={() => remove.mutate(membership.id)}
                      aria-label={`Remove from ${membership.list}`}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {remove.isError && <ErrorMessage error={remove.error} />}
      <AddMembershipForm
        accountId={accountId}
        contactRef={contactRef}
        current={memberships.map((m) => m.list)}
      />
    </section>
  );
}

/** The digest override of one membership, saved on change; shows the change at once. */
function MembershipDigest({
  accountId,
  membership,
}: {
  accountId: AccountId;
  membership: Membership;
}) {
  const update = useUpdateMembership(accountId);
  const [shown, setShown] = useState<boolean | null | undefined>(undefined);
  return (
    <>
      <DigestSelect
        label={`Digest for ${membership.list} (saved at once)`}
        value={choiceOf(shown === undefined ? membership.digest : shown)}
        disabled={update.isPending}
        onChange={(digest) => {
          setShown(digest);
          update.mutate(
            { id: membership.id, input: { digest } },
            { onSettled: () => setShown(undefined) },
          );
        }}
      />
      <SaveStatus state={update} />
      {update.isError && <ErrorMessage error={update.error} />}
    </>
  );
}

function AddMembershipForm({
  accountId,
  contactRef,
  current,
}: {
  accountId: AccountId;
  contactRef: string | number;
  current: string[];
}) {
  const lists = useReachableLists(accountId);
  const create = useCreateMembership(accountId);
  const [list, setList] = useState('');
  const [digest, setDigest] = useState<boolean | null>(null);
  const id = useId();
  const available = (lists.data ?? []).filter((l) => !current.includes(l.name));

  if (lists.isError)
    return <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />;
  return (
    <form
      className="inline-form"
      aria-label="Add to a list"
      onSubmit={(event) => {
        event.preventDefault();
        if (!list) return;
        create.mutate(
          { contact: contactRef, list, digest },
          {
            onSuccess: () => {
              setList('');
              setDigest(null);
            },
          },
        );
      }}
    >
      <FormField id={`${id}-list`} label="Add to the list">
        {(control) => (
          <select
            {...control}
            value={list}
            onChange={(event) => setList(event.target.value)}
            disabled={lists.isPending || available.length === 0}
          >
            <option value="">
              {lists.isPending
                ? 'Loading lists…'
                : available.length === 0
                  ? 'No other list'
                  : 'Choose a list'}
            </option>
            {available.map((l) => (
              <option key={l.name} value={l.name}>
                {l.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField id={`${id}-digest`} label="Digest">
        {(control) => <DigestSelect {...control} value={choiceOf(digest)} onChange={setDigest} />}
      </FormField>
      <button type="submit" className="button" disabled={create.isPending || !list}>
        {create.isPending ? 'Adding…' : 'Add to the list'}
      </button>
      {create.isError && <ErrorMessage error={create.error} />}
    </form>
  );
}
