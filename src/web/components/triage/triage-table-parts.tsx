import type { ReactNode, Ref } from 'react';
import { SelectBox } from '../select-box.tsx';

/** What a queue's table takes from its page (lib/use-triage-queue.ts), whatever its rows. */
export interface TriageTableProps<T> {
  selected: ReadonlySet<string>;
  onToggle: (row: T, selected: boolean) => void;
  onToggleAll: (selected: boolean) => void;
  /** The row keyboard triage is on (j, k). */
  current: string | null;
  onCurrent: (key: string) => void;
  ref?: Ref<HTMLTableElement>;
}

/** The first column's heading, with the checkbox that selects every row on the page. */
export function SelectAllHeading({
  label,
  keys,
  selected,
  onToggleAll,
  children,
}: {
  label: string;
  /** The keys of the rows shown. */
  keys: readonly string[];
  selected: ReadonlySet<string>;
  onToggleAll: (selected: boolean) => void;
  children: ReactNode;
}) {
  return (
    <th scope="col">
      <SelectBox
        label={label}
        checked={keys.length > 0 && keys.every((key) => selected.has(key))}
        onChange={onToggleAll}
      />
      {children}
    </th>
  );
}

/** A queue's row: marked when the cursor is on it, and the cursor follows the focus into it. */
export function TriageRow({
  rowKey,
  current,
  onCurrent,
  children,
}: {
  rowKey: string;
  current: string | null;
  onCurrent: (key: string) => void;
  children: ReactNode;
}) {
  const here = rowKey === current;
  return (
    <tr
      className={here ? 'current' : undefined}
      aria-current={here ? 'true' : undefined}
      onFocus={() => onCurrent(rowKey)}
    >
      {children}
    </tr>
  );
}
