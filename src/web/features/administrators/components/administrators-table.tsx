import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Administrator } from '../../../../api/schemas/administrator.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { carriesField } from '../../../lib/extensions.ts';
import { callerQueries } from '../../../lib/caller-queries.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { mayManageAdministrator } from '../model/caller-bounds.ts';
import { administratorQueries } from '../api/administrator-queries.ts';
import { keyExpiryStatus, useKeyExpiry } from '../lib/key-expiry.ts';
import { summarizePermissions } from '../model/permissions.ts';
import {
  AdministratorForm,
  CreateAdministratorDialog,
  DeleteAdministratorDialog,
  EditAdministratorDialog,
  RetrieveKeyDialog,
} from './administrator-dialogs.tsx';
import { administratorName, isKey } from './administrator-name.ts';

type Action = 'edit' | 'key' | 'delete';

/**
 * The administrators of an account, or the group's global administrators when `accountId` is
 * null for a global principal (spec §4.8 rule 2): people and API keys, told apart by `api`.
 */
export function AdministratorsTable({
  accountId,
  groupLevel = false,
}: {
  accountId: AccountId;
  /** The group's global administrators (spec §4.8 rule 2). */
  groupLevel?: boolean;
}) {
  const administrators = useQuery(administratorQueries.list(accountId));
  const [creating, setCreating] = useState(false);
  const [status, setStatus] = useState('');
  const [acting, setActing] = useState<{ action: Action; administrator: Administrator } | null>(
    null,
  );
  const on = (action: Action) => (acting?.action === action ? acting.administrator : null);
  // The `key_expiry` extension (lib/extensions.ts): only administrators with keys carry it, and
  // an API key administrator always has one, so keys without it mean a server without it.
  const serverReportsExpiry = carriesField(administrators.data, 'key_expiry');
  const expiryUnreported =
    !serverReportsExpiry &&
    (administrators.data?.some((administrator) => isKey(administrator)) ?? false);
  const done = () => setActing(null);
  // The signed-in administrator's own entry (lib/caller-queries.ts), when the server says.
  const selfId = useQuery(callerQueries.self()).data?.administrator?.id;
  const isSelf = (administrator: Administrator | null) =>
    administrator !== null && selfId !== undefined && String(administrator.id) === String(selfId);

  let content;
  if (administrators.isPending) content = <TableSkeleton label="Loading administrators…" />;
  else if (administrators.isError)
    content = (
      <ErrorMessage error={administrators.error} onRetry={() => void administrators.refetch()} />
    );
  else if (administrators.data.length === 0) content = <p>No administrators.</p>;
  else
    content = (
      <TableScroll label="Administrators">
        <table>
          <thead>
            <tr>
              <th scope="col">Username or key</th>
              <th scope="col">Kind</th>
              <th scope="col">Name</th>
              <th scope="col">Permissions</th>
              <th scope="col">Key expiry</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {administrators.data.map((administrator) => (
              <AdministratorRow
                key={String(administrator.id)}
                accountId={accountId}
                administrator={administrator}
                self={isSelf(administrator)}
                serverReportsExpiry={serverReportsExpiry}
                onAction={(action) => setActing({ action, administrator })}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
    );

  return (
    <>
      <div className="actions page-actions">
        <button
          type="button"
          className="button primary"
          onClick={() => setCreating(true)}
          {...AdministratorForm.preloadProps}
        >
          New administrator
        </button>
      </div>
      {/* Said when it changes (a live region present before), and no status while empty. */}
      <p aria-live="polite" className={status ? 'notice' : undefined}>
        {status}
      </p>
      {content}
      {expiryUnreported && (
        <p className="hint">
          This server does not say when API keys expire: the Key expiry column shows only keys
          retrieved in this tab.
        </p>
      )}
      <CreateAdministratorDialog
        accountId={accountId}
        groupLevel={groupLevel}
        open={creating}
        onClose={() => setCreating(false)}
        onKeyCreated={(administrator) => setActing({ action: 'key', administrator })}
        onPersonCreated={setStatus}
      />
      <EditAdministratorDialog
        accountId={accountId}
        groupLevel={groupLevel}
        administrator={on('edit')}
        self={isSelf(on('edit'))}
        onClose={done}
      />
      <RetrieveKeyDialog accountId={accountId} administrator={on('key')} onClose={done} />
      <DeleteAdministratorDialog
        accountId={accountId}
        administrator={on('delete')}
        self={isSelf(on('delete'))}
        onClose={done}
      />
    </>
  );
}

function AdministratorRow({
  accountId,
  administrator,
  self,
  serverReportsExpiry,
  onAction,
}: {
  accountId: AccountId;
  administrator: Administrator;
  /** The signed-in administrator's own row. */
  self: boolean;
  /** The server sends the `key_expiry` extension (lib/key-expiry.ts). */
  serverReportsExpiry: boolean;
  onAction: (action: Action) => void;
}) {
  const retrievedHere = useKeyExpiry(accountId, String(administrator.id));
  // SECURITY.md 32: the server refuses to touch an administrator with more than the caller has.
  const reachable = mayManageAdministrator(usePermissions(), administrator);
  const { text: expiryText, expiry } = keyExpiryStatus(
    administrator,
    retrievedHere,
    serverReportsExpiry,
  );
  const name = administratorName(administrator);
  const fullName = [administrator.firstname, administrator.surname].filter(Boolean).join(' ');
  return (
    <tr aria-current={self ? 'true' : undefined} className={self ? 'self' : undefined}>
      <th scope="row">
        {name}
        {self && <span className="badge"> (you)</span>}
      </th>
      <td>{isKey(administrator) ? `API key (v${administrator.api})` : 'Person'}</td>
      <td>{fullName || '—'}</td>
      <td>
        {summarizePermissions(administrator.permissions)}
        {administrator.permissions.includes('limit_lists') && (
          <span className="hint"> · lists: {administrator.limit_lists.join(', ')}</span>
        )}
        {administrator.permissions.includes('limit_metadata') && (
          <span className="hint"> · fields: {administrator.limit_metadata.join(', ')}</span>
        )}
      </td>
      <td>
        {expiry ? (
          <time dateTime={expiry} title={new Date(expiry).toLocaleString()}>
            {expiryText}
          </time>
        ) : (
          expiryText
        )}
      </td>
      <td>
        {reachable ? (
          <div className="actions">
            <button
              type="button"
              className="button small"
              onClick={() => onAction('edit')}
              {...AdministratorForm.preloadProps}
            >
              Edit<span className="visually-hidden"> {name}</span>
            </button>
            <button type="button" className="button small" onClick={() => onAction('key')}>
              Retrieve key<span className="visually-hidden"> for {name}</span>
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={() => onAction('delete')}
            >
              Delete<span className="visually-hidden"> {name}</span>
            </button>
          </div>
        ) : (
          <span className="hint">Beyond your own permissions or limits: only viewed</span>
        )}
      </td>
    </tr>
  );
}
