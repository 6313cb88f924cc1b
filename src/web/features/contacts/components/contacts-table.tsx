import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { contactRef } from '../../../lib/contact-queries.ts';
import { formatDate, fullName } from '../lib/format.ts';
import { usePaintMark } from '../lib/paint-mark.ts';

/** Up to this many rows render in full; a longer page renders only what is in view. */
export const RENDER_ALL_UP_TO = 100;
const ESTIMATED_ROW_HEIGHT = 42;

type VirtualRowsModule = typeof import('./virtual-rows.tsx');
let virtualRows: VirtualRowsModule | null = null;

/** The virtualized rows' chunk; the route starts it early when its URL asks for a long page. */
export function loadVirtualRows(): Promise<VirtualRowsModule> {
  return import('./virtual-rows.tsx').then((module) => (virtualRows = module));
}

/**
 * The virtualized rows once loaded (null before). Not React.lazy: a Suspense fallback is held at
 * least 300 ms before the content replaces it, and a long page would wait that long.
 */
function useVirtualRows(wanted: boolean): VirtualRowsModule | null {
  const [loaded, setLoaded] = useState(virtualRows);
  useEffect(() => {
    // Without it (the chunk could not load) the first rows stay, with the full height.
    if (wanted && !loaded) void loadVirtualRows().then(setLoaded, () => undefined);
  }, [wanted, loaded]);
  return loaded;
}

interface ContactsTableProps {
  contacts: Contact[];
  /** Contacts before this page (for aria-rowindex). */
  offset: number;
  /** Contacts matching the search on every page (for aria-rowcount). */
  count: number;
  selected?: ReadonlySet<string>;
  onToggle?: (key: string, checked: boolean) => void;
  onToggleAll?: (checked: boolean) => void;
}

/** The key a row is selected under: its API identifier as text. */
export function selectionKey(contact: Contact): string {
  return String(contactRef(contact));
}

/**
 * One page of contacts in a real `<table>`. A long page is virtualized (virtual-rows.tsx): only
 * rows near the viewport are in the DOM, and `aria-rowcount`/`aria-rowindex` tell assistive
 * technology where each rendered row sits in the whole result.
 */
export function ContactsTable({
  contacts,
  offset,
  count,
  selected,
  onToggle,
  onToggleAll,
}: ContactsTableProps) {
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const virtual = contacts.length > RENDER_ALL_UP_TO;
  const rows = useVirtualRows(virtual);
  usePaintMark(contacts, !virtual);
  const selectable = selected !== undefined && onToggle !== undefined;
  const allSelected = selectable && contacts.every((c) => selected.has(selectionKey(c)));
  const columns = 4;
  const row = (contact: Contact, index: number, measure?: (element: Element | null) => void) => {
    const key = selectionKey(contact);
    const name = fullName(contact);
    return (
      <tr key={key} data-index={index} ref={measure} aria-rowindex={offset + index + 2}>
        {/* The selection box shares the name's cell, so the cell is still found by the name. */}
        <td>
          {selectable && (
            <input
              type="checkbox"
              className="select-box"
              aria-label={`Select ${name}`}
              checked={selected.has(key)}
              onChange={(event) => onToggle(key, event.target.checked)}
            />
          )}
          <Link to={encodeURIComponent(key)}>{name}</Link>
        </td>
        <td>
          {contact.emails.map((email) => (
            <span key={String(email.id)} className="cell-line">
              {email.email}
            </span>
          ))}
        </td>
        <td>{contact.lists.map((membership) => membership.list).join(', ') || '—'}</td>
        <td>
          <time dateTime={contact.created}>{formatDate(contact.created)}</time>
        </td>
      </tr>
    );
  };

  // Until the virtualizer has loaded: the first rows in full, and the scroll height of them all.
  const firstRowsThenSpacer = (
    <>
      {contacts.slice(0, RENDER_ALL_UP_TO).map((contact, index) => row(contact, index))}
      <tr aria-hidden="true" className="spacer-row">
        <td
          colSpan={columns}
          style={{ height: (contacts.length - RENDER_ALL_UP_TO) * ESTIMATED_ROW_HEIGHT }}
        />
      </tr>
    </>
  );

  return (
    <div
      ref={setScrollElement}
      className={virtual ? 'table-scroll contacts-scroll' : 'table-scroll'}
      role="region"
      aria-label="Contacts"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
      tabIndex={0}
    >
      <table className="contacts-table" aria-rowcount={count + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">
              {selectable && (
                <input
                  type="checkbox"
                  className="select-box"
                  aria-label="Select every contact on this page"
                  checked={allSelected}
                  onChange={(event) => onToggleAll?.(event.target.checked)}
                />
              )}
              Name
            </th>
            <th scope="col">Email addresses</th>
            <th scope="col">Lists</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {!virtual ? (
            contacts.map((contact, index) => row(contact, index))
          ) : rows ? (
            <rows.VirtualRows
              rows={contacts}
              columns={columns}
              rowHeight={ESTIMATED_ROW_HEIGHT}
              scrollElement={scrollElement}
              renderRow={row}
            />
          ) : (
            firstRowsThenSpacer
          )}
        </tbody>
      </table>
    </div>
  );
}
