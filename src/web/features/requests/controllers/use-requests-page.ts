import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import {
  REQUEST_KINDS,
  REQUEST_PAGE_LIMITS,
  type MemberRequest,
  type RequestKind,
} from '../../../../api/schemas/request.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { plural, useTriageQueue } from '../../../lib/use-triage-queue.ts';
import { requestQueries } from '../api/request-queries.ts';
import { sendRequestAction, useRequestAction } from '../api/use-request-action.ts';
import { requestKey, withoutRequests } from '../lib/request-page-data.ts';

export interface RequestsSearch {
  page: number;
  list: string | undefined;
  kind: RequestKind | undefined;
}

/** What the queue shows, in the URL: `?list=news&kind=join&page=2`. */
export function readRequestsSearch(params: URLSearchParams): RequestsSearch {
  const page = params.get('page') ?? '';
  const kind = params.get('kind');
  return {
    page: /^[1-9]\d{0,8}$/.test(page) ? Number(page) : 1,
    list: params.get('list') || undefined,
    kind: REQUEST_KINDS.find((known) => known === kind),
  };
}

/** The query of the queue's page for what the URL says (the route's loader reads it too). */
export function requestsQuery(search: RequestsSearch) {
  return {
    page: search.page,
    limit: REQUEST_PAGE_LIMITS.default,
    ...(search.list ? { list: search.list } : {}),
    ...(search.kind ? { kind: search.kind } : {}),
  };
}

/** `ann@example.org’s request to join news`: what one request is called in toasts and dialogs. */
export const describeRequest = (request: MemberRequest) =>
  `${request.address}’s request to ${request.kind} ${request.list}`;

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

  /** The URL of the queue with `changes` (a list or kind of undefined: every one), on page 1. */
  const linkTo = (changes: Partial<Pick<RequestsSearch, 'list' | 'kind'>>) => {
    const next = new URLSearchParams();
    const { list, kind } = { list: search.list, kind: search.kind, ...changes };
    if (list) next.set('list', list);
    if (kind) next.set('kind', kind);
    return `?${next.toString()}`;
  };
  const goToPage = (next: number) => {
    const nextParams = new URLSearchParams(params);
    nextParams.set('page', String(next));
    setParams(nextParams);
  };

  return { ...queue, search, requests, act, shown, linkTo, goToPage };
}
