import {
  REQUEST_KINDS,
  REQUEST_PAGE_LIMITS,
  type MemberRequest,
  type RequestKind,
  type RequestPage,
  type RequestQuery,
} from '../../../../api/schemas/request.ts';

/** What the requests queue shows, as its URL says: `?list=news&kind=join&page=2`. */
export interface RequestsSearch {
  page: number;
  list: string | undefined;
  kind: RequestKind | undefined;
}

/** The URL's search, read leniently: a page or kind the queue does not know is the default. */
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
export function requestsQuery(search: RequestsSearch): RequestQuery {
  return {
    page: search.page,
    limit: REQUEST_PAGE_LIMITS.default,
    ...(search.list ? { list: search.list } : {}),
    ...(search.kind ? { kind: search.kind } : {}),
  };
}

/**
 * The queue's URL with `changes` (a list or kind of undefined: every one), on page 1: a filter
 * changes what is counted, so the page number of the last one means nothing.
 */
export function requestsLink(
  search: RequestsSearch,
  changes: Partial<Pick<RequestsSearch, 'list' | 'kind'>>,
): string {
  const next = new URLSearchParams();
  const { list, kind } = { list: search.list, kind: search.kind, ...changes };
  if (list) next.set('list', list);
  if (kind) next.set('kind', kind);
  return `?${next.toString()}`;
}

/** `ann@example.org’s request to join news`: what one request is called in toasts and dialogs. */
export const describeRequest = (request: MemberRequest) =>
  `${request.address}’s request to ${request.kind} ${request.list}`;

/**
 * The counts the filters show, from the answer's `lists` (every request the caller may see,
 * whatever the filters): all of them, and per kind within the list picked, if one is.
 */
export function requestCounts(lists: RequestPage['lists'], list: string | undefined) {
  const inList = lists.filter((entry) => !list || entry.list === list);
  const of = (kind: RequestKind) => inList.reduce((sum, entry) => sum + entry[kind], 0);
  return {
    total: lists.reduce((sum, entry) => sum + entry.join + entry.leave, 0),
    join: of('join'),
    leave: of('leave'),
  };
}
