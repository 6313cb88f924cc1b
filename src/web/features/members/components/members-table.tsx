import { useState } from 'react';
import { Link } from 'react-router';
import type { Membership } from '../../../../api/schemas/membership.ts';
import { LazyBounces } from '../../../components/bounces/lazy-bounces.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { keepFocusWhenRowsGo } from '../../../lib/focus-after-removal.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { SaveStatus } from '../../../components/form/save-status.tsx';
import { useDeleteMembership, useUpdateMembership } from '../../../lib/membership-mutations.ts';
import type { MembersPage } from '../../../lib/list-member-pages.ts';

type Row = MembersPage['rows'][number];

/** Spec §2.3 `digest`: null keeps the address's setting, true forces the digest, false forbids it. */
const DIGEST_CHOICES = [
  { value: 'default', label: 'The address’s setting', digest: null },
  { value: 'digest', label: 'Daily digest', digest: true },
  { value: 'none', label: 'No digest', digest: false },
] as const;

function choiceOf(digest: boolean | null): string {
  return digest === null ? 'default' : digest ? 'digest' : 'none';
}

export function memberName(row: Row): string {
  const { contact } = row;
  return (
    [contact.firstname, contact.surname].filter(Boolean).join(' ') ||
    contact.emails[0]?.email ||
    `#${String(contact.id)}`
  );
}

/** The key a member is selected under: its membership's id. */
export const rowKey = (row: Row) => String(row.membership.id);

/** The digest override of one membership, saved at once; the select says so while it saves. */
function DigestCell({
  accountId,
  membership,
  name,
  editable,
}: {
  accountId: AccountId;
  membership: Membership;
  name: string;
  /** The principal may change memberships; else the setting is shown as text. */
  editable: boolean;
}) {
  const update = useUpdateMembership(accountId);
  const [shown, setShown] = useState<boolean | null | undefined>(undefined);
  if (!editable) {
    return <>{DIGEST_CHOICES.find((c) => c.value === choiceOf(membership.digest))?.label}</>;
  }
  return (
    <>
      <select
        aria-label={`Digest for ${name} (saved at once)`}
        value={choiceOf(shown === undefined ? membership.digest : shown)}
        disabled={update.isPending}
        onChange={(event) => {
          const digest = DIGEST_CHOICES.find((c) => c.value === event.target.value)?.digest ?? null;
          setShown(digest);
          update.mutate(
            { id: membership.id, input: { digest } },
            { onSettled: () => setShown(undefined) },
          );
        }}
      >
        {DIGEST_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <SaveStatus state={update} />
      {update.isError && <ErrorMessage error={update.error} />}
    </>
  );
}

/**
 * One page of members: select, name (to the contact's page), addresses (a bouncing one marked, issue
 * 26 item 1), digest, remove. Selecting
 * and removing show only to a principal that may remove members, the digest control only to one
 * that may change memberships (lib/permissions.ts).
 */
export function MembersTable({
  accountId,
  list,
  rows,
  selected,
  onToggle,
}: {
  accountId: AccountId;
  list: string;
  rows: Row[];
  selected: ReadonlySet<string>;
  onToggle: (rows: Row[], on: boolean) => void;
}) {
  const { may } = usePermissions();
  const mayRemove = may('membership.delete');
  const mayEdit = may('membership.update');
  const remove = useDeleteMembership(accountId);
  const [removing, setRemoving] = useState<Row | null>(null);
  // Said once done (issue 27 item 6): the row leaves, and the page says whom it was.
  const [removed, setRemoved] = useState('');
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(rowKey(row)));
  const bounces = { accountId, scope: { list } };
  return (
    <>
      <p role="status" className="summary">
        {removed}
      </p>
      <LazyBounces {...bounces} />
      <table className="members-table" ref={keepFocusWhenRowsGo}>
        <thead>
          <tr>
            {mayRemove && (
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select every member on this page"
                  checked={allSelected}
                  onChange={(event) => onToggle(rows, event.target.checked)}
                />
              </th>
            )}
            <th scope="col">Name</th>
            <th scope="col">Email addresses</th>
            <th scope="col">Digest</th>
            {mayRemove && (
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const name = memberName(row);
            const ref = row.contact.emails[0]?.contact ?? row.contact.id;
            return (
              <tr key={rowKey(row)}>
                {mayRemove && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${name}`}
                      checked={selected.has(rowKey(row))}
                      onChange={(event) => onToggle([row], event.target.checked)}
                    />
                  </td>
                )}
                <td data-label="Name">
                  <Link to={`../../../contacts/${encodeURIComponent(String(ref))}`} relative="path">
                    {name}
                  </Link>
                </td>
                <td data-label="Addresses">
                  {row.contact.emails.map((email) => (
                    <span key={String(email.id)} className="cell-line">
                      {email.email}
                      <LazyBounces {...bounces} email={email.id} address={email.email} />
                    </span>
                  ))}
                </td>
                <td data-label="Digest">
                  <DigestCell
                    accountId={accountId}
                    membership={row.membership}
                    name={name}
                    editable={mayEdit}
                  />
                </td>
                {mayRemove && (
                  <td>
                    <button
                      type="button"
                      className="button danger"
                      aria-label={`Remove ${name} from ${list}`}
                      onClick={() => {
                        remove.reset();
                        setRemoving(row);
                      }}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove from ${list}?`}
        confirmLabel="Remove"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (removing)
            remove.mutate(removing.membership.id, {
              onSuccess: () => {
                setRemoved(`${memberName(removing)} was removed from ${list}.`);
                setRemoving(null);
              },
            });
        }}
      >
        <p>
          {removing ? memberName(removing) : ''} will no longer receive the messages of {list}. The
          contact stays in the address book.
        </p>
      </ConfirmDialog>
    </>
  );
}
