import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { MemberRequest } from '../../../../api/schemas/request.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { plural, useTriageQueue } from '../../../lib/use-triage-queue.ts';
import { requestQueries } from '../api/request-queries.ts';
import { sendRequestAction, useRequestAction } from '../api/use-request-action.ts';
import { requestKey, withoutRequests } from '../lib/request-page-data.ts';
import {
  describeRequest,
  readRequestsSearch,
  requestsLink,
  requestsQuery,
  type RequestsSearch,
} from '../model/requests-search.ts';

/**
 * The requests page's controller (logic apart from the view): the list, kind and page in the URL,
 * the queue's query, and its keyboard triage, shared with the held queue
 * (lib/use-triage-queue.ts: j, k, a, r, d, x, u, the selection, the undo window).
 */
export function useRequestsPage(accountId: AccountId) {
  const [params, setParams] = useSearchParams();
  const search = readRequestsSearch(params);
  const requests = useQuery({
    ...requestQueries.list(accountId, requestsQuery(search)),
    placeholderData: keepPreviousData,
  });
  const act = useRequestAction(accountId);
  const queue = useTriageQueue<MemberRequest>({
    accountId,
    rows: requests.data?.supported ? requests.data.value.data : [],
    keyOf: requestKey,
    describe: (items) =>
      items.length === 1 && items[0]
        ? describeRequest(items[0])
        : plural(items.length, 'request', 'requests'),
    send: (input, sent) => act.mutate(input, { onSuccess: sent }),
    sendAtPageHide: sendRequestAction,
    undone: (what) => `Undone: ${what} still waits.`,
    words: {
      next: 'Next request',
      previous: 'Previous request',
      approve: 'Approve (the selection, else the request): the address joins or leaves the list',
      reject: 'Reject (asks for a reason): the address is mailed that it was refused',
      discard: 'Discard: nobody is told',
      select: 'Select or unselect the request',
    },
  });
  // What waits for its undo window is not counted either.
  const shown = withoutRequests(requests.data, [...queue.hidden]);

  const linkTo = (changes: Partial<Pick<RequestsSearch, 'list' | 'kind'>>) =>
    requestsLink(search, changes);
  const goToPage = (next: number) => {
    const nextParams = new URLSearchParams(params);
    nextParams.set('page', String(next));
    setParams(nextParams);
  };

  return { ...queue, search, requests, act, shown, linkTo, goToPage };
}
