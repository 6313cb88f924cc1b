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
import { useHeldAction } from '../api/use-held-action.ts';
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
  const act = useHeldAction(accountId);
  const tableRef = useRef<HTMLTableElement>(null);
  const selection = useSelection(heldKey);
  const [rejecting, setRejecting] = useState<readonly HeldMessage[]>([]);
  const [outcome, setOutcome] = useState('');
  const page = held.data?.supported ? held.data.value : null;
  const rows = page?.data ?? [];
  const cursor = useTriageCursor({
    rows,
    keyOf: heldKey,
    container: tableRef,
    paused: rejecting.length > 0,
  });
  const current = cursor.currentItem ?? null;
  const chosen = [...selection.selected.values()].filter((m) =>
    rows.some((r) => heldKey(r) === heldKey(m)),
  );

  const toggle = selection.toggle;

  const run = (action: HeldAction, messages: readonly HeldMessage[], reason?: string) => {
    if (messages.length === 0 || act.isPending) return;
    const what =
      messages.length === 1
        ? `“${messages[0]?.subject.trim() || '(no subject)'}”`
        : plural(messages.length, 'message', 'messages');
    setOutcome('');
    // The cursor goes on with the row after those leaving.
    cursor.focusSoon(cursor.after(messages));
    toggle(messages, false);
    act.mutate(
      { action, messages, ...(reason === undefined ? {} : { reason }) },
      { onSuccess: () => setOutcome(`${DONE[action]} ${what}.`) },
    );
  };
  /** The selection when there is one, else the message under the cursor. */
  const target = () => (chosen.length > 0 ? chosen : current ? [current] : []);

  usePageShortcuts([
    { keys: ['j'], description: 'Next held message', run: () => cursor.move(1) },
    { keys: ['k'], description: 'Previous held message', run: () => cursor.move(-1) },
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
    rejecting,
    setRejecting,
    outcome,
    pickList,
    goToPage,
  };
}
