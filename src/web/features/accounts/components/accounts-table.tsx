import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Account } from '../../../../api/schemas/account.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { sectionPath } from '../../../lib/account-scope.ts';
import { accountQueries, type AccountFilters } from '../api/account-queries.ts';
import {
  CreateAccountDialog,
  DeleteAccountDialog,
  EditAccountDialog,
  LazyCreateAccountForm,
} from './account-dialogs.tsx';
import { FormField } from '../../../components/form/form-field.tsx';

function matches(account: Account, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return (
    needle === '' ||
    account.name.toLowerCase().includes(needle) ||
    account.description.toLowerCase().includes(needle)
  );
}

/**
 * The group's accounts (spec §4.7): searched by name as you type; the §4.7 filters (list, username,
 * key description) ask the server when applied. Each name opens the account.
 */
export function AccountsTable() {
  const [filters, setFilters] = useState<AccountFilters>({});
  const [search, setSearch] = useState('');
  const accounts = useQuery({ ...accountQueries.list(filters), placeholderData: keepPreviousData });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Account | null>(null);
  const [deleting, setDeleting] = useState<Account | null>(null);
  const id = useId();

  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => {
      const entry = data.get(name);
      return typeof entry === 'string' ? entry : '';
    };
    setFilters({
      listname: value('listname'),
      username: value('username'),
      description: value('description'),
    });
  };
  const filtered = Boolean(filters.listname || filters.username || filters.description);

  let content;
  if (accounts.isPending) content = <TableSkeleton label="Loading accounts…" />;
  else if (accounts.isError)
    content = <ErrorMessage error={accounts.error} onRetry={() => void accounts.refetch()} />;
  else {
    const found = accounts.data.filter((account) => matches(account, search));
    content =
      found.length === 0 ? (
        <p>
          {accounts.data.length === 0 && !filtered
            ? 'The group has no accounts yet.'
            : 'No account matches.'}
        </p>
      ) : (
        <TableScroll label="Accounts">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Lists</th>
                <th scope="col">Users</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {found.map((account) => (
                <tr key={String(account.id)}>
                  <td>
                    <Link to={sectionPath(String(account.id), 'contacts')}>{account.name}</Link>
                  </td>
                  <td>{account.description || '—'}</td>
                  <td>{account.lists.length}</td>
                  <td>{account.users.length}</td>
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        className="button small"
                        onClick={() => setEditing(account)}
                      >
                        Settings<span className="visually-hidden"> of {account.name}</span>
                      </button>
                      <button
                        type="button"
                        className="button small danger"
                        onClick={() => setDeleting(account)}
                      >
                        Delete<span className="visually-hidden"> {account.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      );
  }

  return (
    <>
      <div className="actions page-actions">
        <button
          type="button"
          className="button primary"
          onClick={() => setCreating(true)}
          {...LazyCreateAccountForm.preloadProps}
        >
          New account
        </button>
        <Link to="/accounts/administrators" className="button">
          Global administrators
        </Link>
      </div>
      <div className="field page-actions">
        <label htmlFor={`${id}-search`}>Search accounts</label>
        <input
          id={`${id}-search`}
          type="search"
          autoComplete="off"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <details className="page-actions">
        <summary>Filters{filtered ? ' — applied' : ''}</summary>
        <form className="inline-form" onSubmit={applyFilters} aria-label="Account filters">
          <FormField id={`${id}-listname`} label="Holding the list">
            {(control) => <input {...control} name="listname" autoComplete="off" />}
          </FormField>
          <FormField id={`${id}-username`} label="With the administrator (username)">
            {(control) => <input {...control} name="username" type="email" autoComplete="off" />}
          </FormField>
          <FormField id={`${id}-description`} label="With the API key (description)">
            {(control) => <input {...control} name="description" autoComplete="off" />}
          </FormField>
          <button type="submit" className="button">
            Apply the filters
          </button>
          <button type="reset" className="button" onClick={() => setFilters({})}>
            Clear
          </button>
        </form>
      </details>
      {content}
      <CreateAccountDialog open={creating} onClose={() => setCreating(false)} />
      <EditAccountDialog account={editing} onClose={() => setEditing(null)} />
      <DeleteAccountDialog account={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
