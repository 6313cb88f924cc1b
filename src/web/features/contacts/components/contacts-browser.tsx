import '../contacts.css';
import { useDeferredValue, useEffect, useId, useState } from 'react';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { Link, useSearchParams } from 'react-router';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { PageSizeSelect } from '../../../components/page-size-select.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { confinedLists } from '../../../lib/powers.ts';
import { useContactsPage, type ContactsView } from '../controllers/use-contacts-page.ts';
import {
  PAGE_SIZES,
  type PageSize,
  readContactSearch,
  writeContactSearch,
  type ContactSearch,
} from '../lib/search-params.ts';
import { BulkPanel } from './bulk-panel.tsx';
import { ContactsTable, selectionKey } from './contacts-table.tsx';
import { ExportContactsButton } from './export-contacts-button.tsx';
import { ListFilter } from './list-filter.tsx';
import { FormField } from '../../../components/form/form-field.tsx';

const TYPING_DELAY_MS = 300;

/**
 * A control backed by the URL: it shows the user's change at once, and applies it to the URL
 * `delay` ms later (typing pauses before a search is sent: each search costs API allowance).
 */
function useUrlValue<T>(value: T, apply: (next: T) => void, delay: number) {
  const [local, setLocal] = useState(value);
  const [seen, setSeen] = useState(value);
  // The URL changed under us (back button, a link): show its value.
  if (value !== seen) {
    setSeen(value);
    setLocal(value);
  }
  useEffect(() => {
    if (local === value) return;
    const timer = setTimeout(() => apply(local), delay);
    return () => clearTimeout(timer);
  }, [local, value, apply, delay]);
  return [local, setLocal] as const;
}

/**
 * The address book: search as you type, filters (a list's members among them), page size and
 * pages, all kept in the URL so a view can be shared and the back button works; the server does
 * the paging (spec §4.1).
 */
export function ContactsBrowser({ accountId }: { accountId: AccountId }) {
  const [params, setParams] = useSearchParams();
  const powers = usePermissions();
  const { may } = powers;
  const state = readContactSearch(params);
  const contacts = useContactsPage(accountId, state);
  // A page of rows renders in the background once it is in, in slices the browser can answer
  // between, not as one long task (issue 27 item 8).
  const view = useDeferredValue(contacts.data);

  const update = (change: Partial<ContactSearch>, replace = false) =>
    setParams(writeContactSearch({ ...state, page: 1, ...change }), { replace });
  const [search, setSearch] = useUrlValue(
    state.search,
    (text) => update({ search: text }, true),
    TYPING_DELAY_MS,
  );
  const [email, setEmail] = useUrlValue(
    state.email,
    (text) => update({ email: text }, true),
    TYPING_DELAY_MS,
  );
  const [orphans, setOrphans] = useUrlValue(state.orphans, (on) => update({ orphans: on }), 0);
  const [limit, setLimit] = useUrlValue<PageSize>(
    state.limit,
    (size) => update({ limit: size }),
    0,
  );

  // The selection (for bulk work) may span pages: contacts by their API identifier.
  const [selected, setSelected] = useState<ReadonlyMap<string, Contact>>(new Map());
  const toggle = (contacts: Contact[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const contact of contacts) {
        if (on) next.set(selectionKey(contact), contact);
        else next.delete(selectionKey(contact));
      }
      return next;
    });

  const ids = { search: useId(), email: useId(), orphans: useId() };
  const confined = confinedLists(powers);
  const pages = contacts.data?.pages ?? 1;
  const filtered = Boolean(
    state.search.trim() || state.email.trim() || state.list || state.orphans,
  );

  return (
    <>
      {confined && (
        <p className="hint">
          You are limited to {confined.join(', ')} (limit_lists): you see their members, and of each
          contact only those lists; the others are not shown to you.
        </p>
      )}
      <div className="toolbar">
        <form
          className="inline-form"
          role="search"
          aria-label="Find contacts"
          onSubmit={(event) => event.preventDefault()}
        >
          <FormField id={ids.search} label="Search contacts">
            {(control) => (
              <input
                {...control}
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            )}
          </FormField>
          <FormField id={ids.email} label="With the address">
            {(control) => (
              <input
                {...control}
                type="search"
                inputMode="email"
                autoComplete="off"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            )}
          </FormField>
          <ListFilter
            accountId={accountId}
            value={state.list}
            onChange={(list) => update({ list, orphans: false })}
          />
          {confined === null && (
            <div className="checkbox-field">
              <input
                id={ids.orphans}
                type="checkbox"
                disabled={state.list !== ''}
                checked={orphans}
                onChange={(event) => setOrphans(event.target.checked)}
              />
              <label htmlFor={ids.orphans}>Only contacts on no list</label>
            </div>
          )}
          <PageSizeSelect sizes={PAGE_SIZES} value={limit} onChange={setLimit} />
        </form>
        <div className="actions">
          {may('contacts.create') && (
            <>
              <Link className="button primary" to="new">
                New contact
              </Link>
              <Link className="button" to="import">
                Import CSV
              </Link>
            </>
          )}
          <ExportContactsButton readAll={contacts.readAll} />
        </div>
      </div>

      {contacts.isPending ? (
        <TableSkeleton label="Loading contacts…" />
      ) : contacts.isError ? (
        <ErrorMessage error={contacts.error} onRetry={() => void contacts.refetch()} />
      ) : !view ? (
        <TableSkeleton label="Loading contacts…" />
      ) : view.contacts.length === 0 && view.mode !== 'search' ? (
        <p className="summary" role="status">
          {filtered ? 'No contact matches this search.' : 'No contacts yet.'}
        </p>
      ) : (
        <>
          <p className="summary" role="status" aria-busy={contacts.isFetching}>
            {summaryOf(view, state.list)}
            {pages > 1 && `; page ${state.page} of ${pages}`}
            {contacts.isPlaceholderData && ' (updating…)'}
          </p>
          {may('contacts.update') && (
            <BulkPanel
              accountId={accountId}
              readAll={contacts.readAll}
              matching={view.count}
              selected={[...selected.values()]}
              onFinished={() => setSelected(new Map())}
            />
          )}
          <ContactsTable
            contacts={view.contacts}
            offset={(state.page - 1) * state.limit}
            count={view.count}
            selected={new Set(selected.keys())}
            onToggle={(key, on) => {
              const contact = view.contacts.find((c) => selectionKey(c) === key);
              if (contact) toggle([contact], on);
            }}
            onToggleAll={(on) => toggle(view.contacts, on)}
          />
          <Pagination page={state.page} pages={pages} onPage={(page) => update({ page })} />
        </>
      )}
    </>
  );
}

function summaryOf(view: ContactsView, list: string): string {
  const count = (n: number) => (n === 1 ? '1 contact' : `${n} contacts`);
  if (view.mode === 'search') {
    // A server with spec v2 only: the search ran across all contacts; the page keeps the members.
    return `${count(view.contacts.length)} on ${list} among ${view.count} matching contacts`;
  }
  return list ? `${count(view.count)} on ${list}` : count(view.count);
}
