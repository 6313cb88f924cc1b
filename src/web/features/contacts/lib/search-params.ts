import type { ContactQuery } from '../../../../api/schemas/contact.ts';

/** The page sizes the table offers (spec §8: at most 1000 contacts a page). */
export const PAGE_SIZES = [25, 100, 1000] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;

/**
 * What the contacts table shows, as kept in the URL: `?q=&email=&list=&orphans=1&page=2&limit=100`.
 * `list` (the members of one list) and `orphans` (on no list) exclude each other: a list wins.
 */
export interface ContactSearch {
  search: string;
  email: string;
  list: string;
  orphans: boolean;
  page: number;
  limit: PageSize;
}

function positiveInt(text: string | null): number | null {
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 ? value : null;
}

/** Reads the table's state from the URL; anything unreadable falls back to its default. */
export function readContactSearch(params: URLSearchParams): ContactSearch {
  const limit = positiveInt(params.get('limit'));
  return {
    search: params.get('q') ?? '',
    email: params.get('email') ?? '',
    list: params.get('list') ?? '',
    orphans: params.get('orphans') === '1' && !params.get('list'),
    page: positiveInt(params.get('page')) ?? 1,
    limit: PAGE_SIZES.find((size) => size === limit) ?? DEFAULT_PAGE_SIZE,
  };
}

/** The URL form of a state; defaults are left out so a plain `/contacts` stays plain. */
export function writeContactSearch(state: ContactSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('q', state.search);
  if (state.email.trim()) params.set('email', state.email.trim());
  if (state.list) params.set('list', state.list);
  else if (state.orphans) params.set('orphans', '1');
  if (state.page > 1) params.set('page', String(state.page));
  if (state.limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(state.limit));
  return params;
}

/**
 * The API query (spec §4.1 get many) for a state; empty filters are not sent. The list filter is
 * not in it: spec v2 has none, so a list's members are read another way (lib/list-member-pages.ts).
 */
export function toContactQuery(state: ContactSearch): ContactQuery {
  const query: ContactQuery = { page: state.page, limit: state.limit };
  const search = state.search.trim();
  if (search) query.search = search;
  const email = state.email.trim();
  if (email) query.email = email;
  if (state.orphans) query.orphans = true;
  return query;
}

/** The same search without paging, for work on every matching contact (export, bulk jobs). */
export function filtersOf(query: ContactQuery): Omit<ContactQuery, 'page' | 'limit'> {
  const { page: _page, limit: _limit, ...filters } = query;
  return filters;
}
