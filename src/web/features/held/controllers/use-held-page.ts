import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { HeldMessage } from '../../../../api/schemas/held.ts';
import { HELD_PAGE_LIMITS } from '../../../../api/schemas/held.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { plural, useTriageQueue } from '../../../lib/use-triage-queue.ts';
import { heldQueries } from '../api/held-queries.ts';
import { sendHeldAction, useHeldAction } from '../api/use-held-action.ts';
import { heldKey } from '../lib/held-key.ts';
import { withoutHeld } from '../lib/held-page-data.ts';

/** What the queue shows, in the URL: `?list=news&page=2`. */
function readSearch(params: URLSearchParams) {
  const page = params.get('page') ?? '';
  return {
    page: /^[1-9]\d{0,8}$/.test(page) ? Number(page) : 1,
    list: params.get('list') || undefined,
  };
}

const subjectOf = (message: HeldMessage) => message.subject.trim() || '(no subject)';

/**
 * The held page's controller (logic apart from the view, as react-admin's ra-core does): the
 * list and page in the URL, the queue's query, its keyboard triage (lib/use-triage-queue.ts: j,
 * k, a, r, d, x, u, the selection, the undo window), and after one message is approved or
 * rejected its sender, for a rule.
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
  // After one message is approved or rejected: its sender, to be accepted, held or rejected from
  // now on (spec §2.4 sender settings).
  const [sender, setSender] = useState<{ list: string; address: string } | null>(null);
  const queue = useTriageQueue<HeldMessage>({
    accountId,
    rows: held.data?.supported ? held.data.value.data : [],
    keyOf: heldKey,
    describe: (messages) =>
      messages.length === 1 && messages[0]
        ? `“${subjectOf(messages[0])}”`
        : plural(messages.length, 'message', 'messages'),
    send: (input, sent) => act.mutate(input, { onSuccess: sent }),
    sendAtPageHide: sendHeldAction,
    onSent: ({ action, items: [only, ...others] }) =>
      setSender(
        only && others.length === 0 && action !== 'discard'
          ? { list: only.list, address: only.from_address }
          : null,
      ),
    onSchedule: () => setSender(null),
    undone: (what) => `Undone: ${what} stays held.`,
    words: {
      next: 'Next held message',
      previous: 'Previous held message',
      approve: 'Approve (the selection, else the message): archived and sent to the list',
      reject: 'Reject (asks for a reason): the sender gets the reject message',
      discard: 'Discard: nothing is sent',
      select: 'Select or unselect the message',
    },
  });
  // What waits for its undo window is not counted either.
  const shown = withoutHeld(held.data, [...queue.hidden]);

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

  return { ...queue, search, held, act, sender, shown, pickList, goToPage, subjectOf };
}
