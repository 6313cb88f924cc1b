import type { HeldMessage } from '../../../../api/schemas/held.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { SelectBox } from '../../../components/select-box.tsx';
import {
  SelectAllHeading,
  TriageRow,
  type TriageTableProps,
} from '../../../components/triage/triage-table-parts.tsx';
import { heldKey } from '../lib/held-key.ts';

/** `current`: the row keyboard triage is on (j, k), the one the preview shows. */
interface HeldTableProps extends TriageTableProps<HeldMessage> {
  messages: readonly HeldMessage[];
  /** A subject was tapped or clicked (not pressed with Enter): the message is to be shown. */
  onTap: () => void;
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
  return (
    <table className="triage-table" ref={ref}>
      <thead>
        <tr>
          <SelectAllHeading
            label="Select every held message on this page"
            keys={messages.map(heldKey)}
            selected={selected}
            onToggleAll={onToggleAll}
          >
            Subject
          </SelectAllHeading>
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
            <TriageRow key={key} rowKey={key} current={current} onCurrent={onCurrent}>
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
            </TriageRow>
          );
        })}
      </tbody>
    </table>
  );
}
