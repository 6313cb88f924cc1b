import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { HeldAction, HeldMessage } from '../../../../api/schemas/held.ts';
import { HELD_PAGE_LIMITS } from '../../../../api/schemas/held.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePageShortcuts } from '../../../lib/page-shortcuts.ts';
import { useSelection } from '../../../lib/use-selection.ts';
import { useTriageCursor } from '../../../lib/use-triage-cursor.ts';
import { heldQueries } from '../api/held-queries.ts';
import { withoutHeld } from '../lib/held-page-data.ts';
import { UNDO_SECONDS, useUndoableActions } from './use-undoable-actions.ts';
import { heldKey } from '../lib/held-key.ts';

const DONE: Record<HeldAction, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  discard: 'Discarded',
};

export const plural = (count: number, one: string, many: string) =>
  `${count} ${count === 1 ? one : many}`;

/** What the queue shows, in the URL: `?list=news&page=2`. */
function readSearch(params: URLSearchParams) {
  const page = params.get('page') ?? '';
  return {
    page: /^[1-9]\d{0,8}$/.test(page) ? Number(page) : 1,
    list: params.get('list') || undefined,
  };
}

/**
 * The held page's controller (logic apart from the view, as react-admin's ra-core does): the
 * list and page in the URL, the queue's query, the selection, the triage cursor and its keys
 * (j, k, a, r, d, x), and the actions with what they did.
 */
export function useHeldPage(accountId: AccountId) {
  const [params, setParams] = useSearchParams();
  const search = readSearch(params);
  const held = useQuery({
    ...heldQueries.list(accountId, {
      page: search.page,
      limit: HELD_PAGE_LIMITS.default,
      ...(search.list ? { list: search.list } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const tableRef = useRef<HTMLTableElement>(null);
  const selection = useSelection(heldKey);
  const [rejecting, setRejecting] = useState<readonly HeldMessage[]>([]);
  // A bulk approve or discard says how many first (a reject asks for its reason, count and all).
  const [confirming, setConfirming] = useState<{
    action: HeldAction;
    messages: readonly HeldMessage[];
  } | null>(null);
  const [outcome, setOutcome] = useState('');
  // After one message is approved or rejected: its sender, to be accepted, held or rejected from
  // now on (spec §2.4 sender settings).
  const [sender, setSender] = useState<{ list: string; address: string } | null>(null);
  // j and k moved: the view keeps the open message on screen.
  const [moves, setMoves] = useState(0);
  const undoable = useUndoableActions(accountId, (sent) => {
    setOutcome(`${DONE[sent.action]} ${sent.what}.`);
    const [only] = sent.messages;
    setSender(
      sent.messages.length === 1 && only && sent.action !== 'discard'
        ? { list: only.list, address: only.from_address }
        : null,
    );
  });
  const act = undoable.act;
  // What waits for its undo window is not shown, and not counted.
  const shown = withoutHeld(held.data, [...undoable.hidden]);
  const page = shown?.supported ? shown.value : null;
  const rows = page?.data ?? [];
  const cursor = useTriageCursor({
    rows,
    keyOf: heldKey,
    container: tableRef,
    paused: rejecting.length > 0 || confirming !== null,
  });
  const current = cursor.currentItem ?? null;
  const chosen = [...selection.selected.values()].filter((m) =>
    rows.some((r) => heldKey(r) === heldKey(m)),
  );

  const toggle = selection.toggle;

  /** Schedules the action (sent after its undo window); confirmed is a bulk action's answer. */
  const run = (
    action: HeldAction,
    messages: readonly HeldMessage[],
    reason?: string,
    confirmed = false,
  ) => {
    if (messages.length === 0) return;
    if (messages.length > 1 && action !== 'reject' && !confirmed) {
      setConfirming({ action, messages });
      return;
    }
    const what =
      messages.length === 1
        ? `“${messages[0]?.subject.trim() || '(no subject)'}”`
        : plural(messages.length, 'message', 'messages');
    setOutcome('');
    setSender(null);
    // The cursor goes on with the row after those leaving.
    cursor.focusSoon(cursor.after(messages));
    toggle(messages, false);
    undoable.schedule({ action, messages, ...(reason === undefined ? {} : { reason }) }, what);
  };
  const undo = (key?: number) => {
    const entry = undoable.undo(key);
    if (!entry) return;
    setOutcome(`Undone: ${entry.what} stays held.`);
    const [first] = entry.messages;
    if (first) cursor.focusSoon(first);
  };
  /** The selection when there is one, else the message under the cursor. */
  const target = () => (chosen.length > 0 ? chosen : current ? [current] : []);

  const move = (step: number) => {
    cursor.move(step);
    setMoves((count) => count + 1);
  };
  usePageShortcuts([
    { keys: ['j'], description: 'Next held message', run: () => move(1) },
    { keys: ['k'], description: 'Previous held message', run: () => move(-1) },
    {
      keys: ['a'],
      description: 'Approve (the selection, else the message): archived and sent to the list',
      run: () => run('approve', target()),
    },
    {
      keys: ['r'],
      description: 'Reject (asks for a reason): the sender gets the reject message',
      run: () => setRejecting(target()),
    },
    {
      keys: ['d'],
      description: 'Discard: nothing is sent',
      run: () => run('discard', target()),
    },
    {
      keys: ['x'],
      description: 'Select or unselect the message',
      run: () => current && toggle([current], !selection.has(current)),
    },
    {
      keys: ['u'],
      description: `Undo the last action, within ${UNDO_SECONDS} seconds`,
      run: () => undo(),
    },
  ]);

  const pickList = (list: string | undefined) => {
    const next = new URLSearchParams();
    if (list) next.set('list', list);
    return `?${next.toString()}`;
  };
  const goToPage = (next: number) => {
    const nextParams = new URLSearchParams(params);
    nextParams.set('page', String(next));
    setParams(nextParams);
  };

  return {
    search,
    held,
    act,
    tableRef,
    selection,
    rows,
    cursor,
    current,
    chosen,
    toggle,
    run,
    undo,
    pending: undoable.pending,
    confirming,
    setConfirming,
    rejecting,
    setRejecting,
    outcome,
    sender,
    moves,
    shown,
    pickList,
    goToPage,
  };
}
