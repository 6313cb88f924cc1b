import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { CONTACTS_PAINT_MARK, contactRef } from '../../../lib/contact-queries.ts';
import { formatDate, fullName } from '../lib/format.ts';

/** Up to this many rows render in full; a longer page renders only what is in view. */
const RENDER_ALL_UP_TO = 100;
const ESTIMATED_ROW_HEIGHT = 42;

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
 * One page of contacts in a real `<table>`. A long page is virtualized: only rows near the
 * viewport are in the DOM, spacer rows keep the scroll height, and `aria-rowcount`/`aria-rowindex`
 * tell assistive technology where each rendered row sits in the whole result.
 */
export function ContactsTable({
  contacts,
  offset,
  count,
  selected,
  onToggle,
  onToggleAll,
}: ContactsTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // Marks the first frame after a new page is committed (bench/contacts-render.ts).
  useEffect(() => {
    const frame = requestAnimationFrame(() =>
      performance.mark(CONTACTS_PAINT_MARK, { detail: { rows: contacts.length } }),
    );
    return () => cancelAnimationFrame(frame);
  }, [contacts]);
  const virtual = contacts.length > RENDER_ALL_UP_TO;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: contacts.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtual
    ? virtualizer.getVirtualItems()
    : contacts.map((_, index) => ({ index, start: 0, end: 0, key: index }));
  const total = virtualizer.getTotalSize();
  const before = virtual ? (items[0]?.start ?? 0) : 0;
  const after = virtual ? total - (items.at(-1)?.end ?? 0) : 0;
  const selectable = selected !== undefined && onToggle !== undefined;
  const allSelected = selectable && contacts.every((c) => selected.has(selectionKey(c)));
  const columns = 4;

  return (
    <div
      ref={scrollRef}
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
          {before > 0 && (
            <tr aria-hidden="true" className="spacer-row">
              <td colSpan={columns} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const contact = contacts[item.index];
            if (!contact) return null;
            const key = selectionKey(contact);
            const name = fullName(contact);
            return (
              <tr
                key={key}
                data-index={item.index}
                ref={virtual ? virtualizer.measureElement : undefined}
                aria-rowindex={offset + item.index + 2}
              >
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
          })}
          {after > 0 && (
            <tr aria-hidden="true" className="spacer-row">
              <td colSpan={columns} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
