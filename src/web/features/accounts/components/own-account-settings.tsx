import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../../api/errors.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { lazyForm } from '../../../components/form/lazy-form.tsx';
import { useCallerInfo } from '../../../lib/caller-queries.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { accountQueries } from '../api/account-queries.ts';

const LazyAccountSettings = lazyForm(() =>
  import('./account-forms.tsx').then((forms) => forms.AccountSettings),
);

/**
 * The account's own settings (spec §2.7) for its superadmin or a holder of `general_settings`
 * (§2.6 "Manage general account settings"), read and saved with spec §4.7 on its own account: the
 * reference server's extension (api/operations.ts OWN_ACCOUNT). A server that keeps §4.7 to
 * operators (global keys with `account`, as spec v2 and EXTENSIONS=off do) refuses: the page says
 * so in words, and what would let the person in.
 */
export function OwnAccountSettings() {
  const caller = useCallerInfo();
  const powers = usePermissions();
  const account = caller?.account ?? null;
  const mayManage =
    !powers.known ||
    powers.permissions.has('superadmin') ||
    powers.permissions.has('general_settings');
  const detail = useQuery({
    ...accountQueries.detail(account?.id ?? 0),
    enabled: account !== null && mayManage,
    retry: false,
  });
  const [saved, setSaved] = useState(false);
  // Each save or cancel starts the form again from the stored values: clean, so "Saved." stays
  // until the next change.
  const [round, setRound] = useState(0);
  const onDirtyChange = useCallback((dirty: boolean) => {
    if (dirty) setSaved(false);
  }, []);
  useEffect(() => void LazyAccountSettings.preload(), []);

  if (!mayManage)
    return (
      <p role="alert" className="error-message">
        Not permitted: the account’s settings need the general_settings permission (or superadmin),
        which your sign-in does not have.
      </p>
    );
  if (account === null)
    return (
      <p className="notice">
        This server does not say which account you are signed in to, so its settings cannot be read
        here.
      </p>
    );
  if (detail.isPending) return <p role="status">Loading the account’s settings…</p>;
  if (detail.isError) {
    if (detail.error instanceof ApiError && detail.error.status === 403)
      return (
        <div className="notice stack" role="alert">
          <p>
            This server lets only an operator read and change {account.name}’s settings: it answered
            “{detail.error.message}”. The mailing-list API keeps accounts to grouped accounts’
            global keys with the account permission (spec §4.7); your general_settings permission
            does not reach them on this server.
          </p>
          <p>Ask an operator of the group to change them.</p>
        </div>
      );
    return <ErrorMessage error={detail.error} onRetry={() => void detail.refetch()} />;
  }
  return (
    <>
      {saved && <p role="status">Saved.</p>}
      <LazyAccountSettings
        key={round}
        account={detail.data}
        ownAccount
        onDone={() => {
          setRound((count) => count + 1);
          setSaved(true);
        }}
        onCancel={() => {
          setRound((count) => count + 1);
          setSaved(false);
        }}
        onDirtyChange={onDirtyChange}
      />
    </>
  );
}
