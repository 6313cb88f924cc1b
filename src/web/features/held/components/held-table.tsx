import type { Ref } from 'react';
import type { HeldMessage } from '../../../../api/schemas/held.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { SelectBox } from '../../../components/select-box.tsx';
import { heldKey } from '../lib/held-key.ts';

interface HeldTableProps {
  messages: readonly HeldMessage[];
  selected: ReadonlySet<string>;
  onToggle: (message: HeldMessage, selected: boolean) => void;
  onToggleAll: (selected: boolean) => void;
  /** The row keyboard triage is on (j, k): the one the preview shows. */
  current: string | null;
  onCurrent: (key: string) => void;
  /** A subject was tapped or clicked (not pressed with Enter): the message is to be shown. */
  onTap: () => void;
  ref?: Ref<HTMLTableElement>;
}

/**
 * A page of the held queue: each message with why it was held. A row's subject is a button that
 * shows it in the preview; it carries lib/use-triage-cursor.ts's `data-triage-link`.
 */
export function HeldTable({
  messages,
  selected,
  onToggle,
  onToggleAll,
  current,
  onCurrent,
  onTap,
  ref,
}: HeldTableProps) {
  const allSelected = messages.length > 0 && messages.every((m) => selected.has(heldKey(m)));
  return (
    <table className="triage-table" ref={ref}>
      <thead>
        <tr>
          <th scope="col">
            <SelectBox
              label="Select every held message on this page"
              checked={allSelected}
              onChange={onToggleAll}
            />
            Subject
          </th>
          <th scope="col">From</th>
          <th scope="col">List</th>
          <th scope="col">Held</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((message) => {
          const key = heldKey(message);
          const subject = message.subject.trim() || '(no subject)';
          return (
            <tr
              key={key}
              className={key === current ? 'current' : undefined}
              aria-current={key === current ? 'true' : undefined}
              onFocus={() => onCurrent(key)}
            >
              <td data-label="Subject">
                <SelectBox
                  label={`Select “${subject}”`}
                  checked={selected.has(key)}
                  onChange={(on) => onToggle(message, on)}
                />
                <button
                  type="button"
                  className="link-button"
                  data-triage-link={key}
                  aria-describedby={`held-why-${key}`}
                  onClick={(event) => {
                    onCurrent(key);
                    // A keyboard's click has no pointer count: keyboard users triage in place.
                    if (event.detail > 0) onTap();
                  }}
                >
                  {subject}
                </button>
              </td>
              <td data-label="From">
                {message.from_phrase.trim() && (
                  <span className="cell-line">{message.from_phrase}</span>
                )}
                <span className="cell-line address">{message.from_address}</span>
              </td>
              <td data-label="List">{message.list}</td>
              <td data-label="Held">
                <RelativeTime time={new Date(message.received * 1000)} />
              </td>
              <td data-label="Why" id={`held-why-${key}`}>
                {message.reason}
                {message.reasons.length > 1 && (
                  <span className="hint"> (and {message.reasons.length - 1} more)</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
