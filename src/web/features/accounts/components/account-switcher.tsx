import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Account } from '../../../../api/schemas/account.ts';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { sectionOf, sectionPath } from '../../../lib/account-scope.ts';
import { accountQueries } from '../api/account-queries.ts';
import { AccountButton, pendingAccountName } from './account-button.tsx';
import { FormField } from '../../../components/form/form-field.tsx';

export interface AccountSwitcherProps {
  /** The account in the URL, if any. */
  accountId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function matches(account: Account, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return (
    account.name.toLowerCase().includes(needle) ||
    account.description.toLowerCase().includes(needle) ||
    String(account.id) === needle
  );
}

/**
 * The account a global principal works on (spec §4.8), fed by GET /accounts/. The button names the
 * account in the URL; the dialog filters the group's accounts as you type, arrow keys move through
 * the results, Enter opens one. Each result is a link: it can open in another tab too.
 */
export function AccountSwitcher({ accountId, open, onOpenChange }: AccountSwitcherProps) {
  const accounts = useQuery(accountQueries.list());
  const current = accounts.data?.find((account) => String(account.id) === accountId);

  return (
    <>
      <AccountButton
        name={current?.name ?? pendingAccountName(accountId)}
        onClick={() => onOpenChange(true)}
      />
      <Dialog
        open={open}
        onClose={() => onOpenChange(false)}
        title="Switch account"
        className="switcher"
      >
        <AccountSearch
          accounts={accounts.data}
          accountId={accountId}
          onChosen={() => onOpenChange(false)}
        />
        {accounts.isPending && <p role="status">Loading accounts…</p>}
        {accounts.isError && (
          <ErrorMessage error={accounts.error} onRetry={() => void accounts.refetch()} />
        )}
      </Dialog>
    </>
  );
}

function AccountSearch({
  accounts,
  accountId,
  onChosen,
}: {
  accounts: Account[] | undefined;
  accountId: string | null;
  onChosen: () => void;
}) {
  const [search, setSearch] = useState('');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const searchId = useId();
  const listId = useId();
  const section = sectionOf(pathname) ?? 'contacts';
  const found = (accounts ?? []).filter((account) => matches(account, search));
  // Enter pressed before the accounts arrived (the switcher loads after the shell paints): it
  // opens the first match once they do, rather than being lost.
  const enterWaiting = useRef(false);
  const choose = (account: Account) => {
    onChosen();
    void navigate(sectionPath(String(account.id), section));
  };
  const first = found[0];
  const chooseWaiting = useEffectEvent(() => {
    if (!enterWaiting.current) return;
    enterWaiting.current = false;
    if (first) choose(first);
  });
  const loaded = accounts !== undefined;
  useEffect(() => {
    if (loaded) chooseWaiting();
  }, [loaded]);

  const links = (list: HTMLElement | null) => [
    ...(list?.querySelectorAll<HTMLAnchorElement>('a') ?? []),
  ];

  function onSearchKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      links(document.getElementById(listId))[0]?.focus();
    } else if (event.key === 'Enter' && first) {
      event.preventDefault();
      choose(first);
    } else if (event.key === 'Enter' && accounts === undefined) {
      event.preventDefault();
      enterWaiting.current = true;
    }
  }

  function onListKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const all = links(event.currentTarget);
    const index = all.indexOf(document.activeElement as HTMLAnchorElement);
    const move = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: all.length - 1 }[
      event.key
    ];
    if (move === undefined) return;
    event.preventDefault();
    if (move < 0) document.getElementById(searchId)?.focus();
    else all[Math.min(move, all.length - 1)]?.focus();
  }

  return (
    <>
      <FormField id={searchId} label="Search accounts">
        {(control) => (
          <input
            {...control}
            type="search"
            data-initial-focus
            autoComplete="off"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onKeyDown={onSearchKeyDown}
            aria-describedby={`${listId}-count`}
          />
        )}
      </FormField>
      <p id={`${listId}-count`} className="hint" aria-live="polite">
        {found.length === 1 ? '1 account' : `${found.length} accounts`}. Arrow keys move through
        them; Enter opens one.
      </p>
      {/* Arrow keys move focus between the links: a composite widget built from native links. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <ul id={listId} className="switcher-list" aria-label="Accounts" onKeyDown={onListKeyDown}>
        {found.map((account) => (
          <li key={String(account.id)}>
            <Link
              to={sectionPath(String(account.id), section)}
              aria-current={String(account.id) === accountId ? 'true' : undefined}
              onClick={onChosen}
            >
              <span className="switcher-name">{account.name}</span>
              {account.description && (
                <span className="switcher-description">{account.description}</span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
