/** The page sizes of a members page: small pages, as every member shown counts (spec §8). */
export const MEMBER_PAGE_SIZES = [25, 50, 100] as const;
export type MemberPageSize = (typeof MEMBER_PAGE_SIZES)[number];

export interface MembersSearch {
  search: string;
  page: number;
  limit: MemberPageSize;
}

function positiveInt(text: string | null): number | null {
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 ? value : null;
}

/** `?q=&page=&limit=`; anything unreadable falls back to its default. */
export function readMembersSearch(params: URLSearchParams): MembersSearch {
  const limit = positiveInt(params.get('limit'));
  return {
    search: params.get('q') ?? '',
    page: positiveInt(params.get('page')) ?? 1,
    limit: MEMBER_PAGE_SIZES.find((size) => size === limit) ?? MEMBER_PAGE_SIZES[0],
  };
}

export function writeMembersSearch(state: MembersSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('q', state.search.trim());
  if (state.page > 1) params.set('page', String(state.page));
  if (state.limit !== MEMBER_PAGE_SIZES[0]) params.set('limit', String(state.limit));
  return params;
}
