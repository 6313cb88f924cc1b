import { useRef, useState } from 'react';
import type { ApiClient } from '../../api/client.ts';
import type { AccountId } from './api-client.ts';
import { usePageShortcuts } from './page-shortcuts.ts';
import { useSelection } from './use-selection.ts';
import { useTriageCursor } from './use-triage-cursor.ts';
import {
  UNDO_SECONDS,
  useUndoableActions,
  type PendingAction,
  type TriageAction,
  type TriageInput,
} from './use-undoable-actions.ts';

const DONE: Record<TriageAction, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  discard: 'Discarded',
};

export const plural = (count: number, one: string, many: string) =>
  `${count} ${count === 1 ? one : many}`;

/** What the page's keys are called in the shortcut help (`?`). */
export interface TriageWords {
  next: string;
  previous: string;
  approve: string;
  reject: string;
  discard: string;
  select: string;
}

/**
 * The keyboard triage of a moderation queue (the held messages, the join and leave requests): the
 * rows on screen less those whose action waits for its undo window, the selection (checkboxes,
 * `x`), the cursor (`j`, `k`), the actions (`a`, `r` asking for a reason, `d`) on the selection or
 * else the row under the cursor, a bulk approve or discard confirmed with its count first, and
 * `u` (lib/use-undoable-actions.ts). The page gives its rows and how to send; the view reads the
 * rest.
 *
 * @example
 * const queue = useTriageQueue({ accountId, rows, keyOf, describe, send, sendAtPageHide, undone, words });
 * <Table ref={queue.tableRef} rows={queue.rows} current={queue.cursor.current} … />
 */
export function useTriageQueue<T>({
  accountId,
  rows: loaded,
  keyOf,
  describe,
  send,
  sendAtPageHide,
  onSent,
  onSchedule,
  undone,
  words,
}: {
  accountId: AccountId;
  /** The rows as read, in the order shown. */
  rows: readonly T[];
  keyOf: (row: T) => string;
  /** What the toast and the outcome call these rows: `“Subject”`, `3 messages`. */
  describe: (rows: readonly T[]) => string;
  /** Sends an action now (the page's mutation); `sent` once the server took it. */
  send: (input: TriageInput<T>, sent: () => void) => void;
  /** Sends an action with a client whose requests outlive the page (the tab is closing). */
  sendAtPageHide: (api: ApiClient, input: TriageInput<T>) => Promise<unknown>;
  /** After the server took an action (besides the outcome this hook says). */
  onSent?: (action: PendingAction<T>) => void;
  /** When an action is scheduled (what followed the last one is no longer current). */
  onSchedule?: () => void;
  /** The outcome after an undo: `Undone: “Subject” stays held.` */
  undone: (what: string) => string;
  words: TriageWords;
}) {
  const tableRef = useRef<HTMLTableElement>(null);
  const selection = useSelection(keyOf);
  const [rejecting, setRejecting] = useState<readonly T[]>([]);
  // A bulk approve or discard says how many first (a reject asks for its reason, count and all).
  const [confirming, setConfirming] = useState<{
    action: Exclude<TriageAction, 'reject'>;
    items: readonly T[];
  } | null>(null);
  const [outcome, setOutcome] = useState('');
  // j and k moved: the view may keep the open row on screen.
  const [moves, setMoves] = useState(0);
  const undoable = useUndoableActions<T>({
    accountId,
    keyOf,
    send,
    sendAtPageHide,
    onSent: (sent) => {
      setOutcome(`${DONE[sent.action]} ${sent.what}.`);
      onSent?.(sent);
    },
  });
  // What waits for its undo window is not shown.
  const rows = loaded.filter((row) => !undoable.hidden.has(keyOf(row)));
  const cursor = useTriageCursor({
    rows,
    keyOf,
    container: tableRef,
    paused: rejecting.length > 0 || confirming !== null,
  });
  const current = cursor.currentItem ?? null;
  const chosen = [...selection.selected.values()].filter((item) =>
    rows.some((row) => keyOf(row) === keyOf(item)),
  );
  const toggle = selection.toggle;

  /** Schedules the action (sent after its undo window); `confirmed`: a bulk action's answer. */
  const run = (action: TriageAction, items: readonly T[], reason?: string, confirmed = false) => {
    if (items.length === 0) return;
    if (items.length > 1 && action !== 'reject' && !confirmed) {
      setConfirming({ action, items });
      return;
    }
    setOutcome('');
    onSchedule?.();
    // The cursor goes on with the row after those leaving.
    cursor.focusSoon(cursor.after(items));
    toggle(items, false);
    undoable.schedule(
      { action, items, ...(reason === undefined ? {} : { reason }) },
      describe(items),
    );
  };
  /** What a button or key starts: a reject asks for its reason first, the others `run`. */
  const begin = (action: TriageAction, items: readonly T[]) =>
    action === 'reject' ? setRejecting(items) : run(action, items);
  const undo = (key?: number) => {
    const entry = undoable.undo(key);
    if (!entry) return;
    setOutcome(undone(entry.what));
    const [first] = entry.items;
    if (first) cursor.focusSoon(first);
  };
  /** The selection when there is one, else the row under the cursor. */
  const target = () => (chosen.length > 0 ? chosen : current ? [current] : []);
  const move = (step: number) => {
    cursor.move(step);
    setMoves((count) => count + 1);
  };

  usePageShortcuts([
    { keys: ['j'], description: words.next, run: () => move(1) },
    { keys: ['k'], description: words.previous, run: () => move(-1) },
    { keys: ['a'], description: words.approve, run: () => run('approve', target()) },
    { keys: ['r'], description: words.reject, run: () => begin('reject', target()) },
    { keys: ['d'], description: words.discard, run: () => run('discard', target()) },
    {
      keys: ['x'],
      description: words.select,
      run: () => current && toggle([current], !selection.has(current)),
    },
    {
      keys: ['u'],
      description: `Undo the last action, within ${UNDO_SECONDS} seconds`,
      run: () => undo(),
    },
  ]);

  return {
    tableRef,
    selection,
    /** The rows shown: those read, less those whose action waits. */
    rows,
    /** The keys of the rows whose action waits (their counts are the page's to take off). */
    hidden: undoable.hidden,
    pending: undoable.pending,
    cursor,
    current,
    chosen,
    toggle,
    run,
    begin,
    undo,
    confirming,
    setConfirming,
    rejecting,
    setRejecting,
    outcome,
    moves,
  };
}

/** What useTriageQueue answers: the view's parts read it (components/triage/). */
export type TriageQueue<T> = ReturnType<typeof useTriageQueue<T>>;
