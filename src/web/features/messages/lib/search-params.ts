import { PAGE_LIMITS } from '../../../../api/constants.ts';
import type { MessageQuery } from '../../../../api/schemas/message.ts';

/** The page sizes the list offers (spec §8: at most 100 messages a page; 10 is the default). */
export const PAGE_SIZES = [PAGE_LIMITS.messages.default, 50, PAGE_LIMITS.messages.max] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** Spec §4.5 `direction`: by date, newest first unless asked. */
export type Direction = NonNullable<MessageQuery['direction']>;

/**
 * What the list shows, as kept in the URL: `?page=2&limit=50&direction=asc&list=news&q=invoice`.
 * `list` and `q` narrow the loaded page in the browser (spec §4.5 has no such query): a message
 * opened from the list keeps them, so its next and previous are the list's.
 */
export interface MessageSearch {
  page: number;
  limit: PageSize;
  direction: Direction;
  /** Only messages to this list; null: every list. */
  list: string | null;
  /** Only messages whose subject, sender or plain text holds this; '': all. */
  q: string;
}

export const DEFAULT_MESSAGE_SEARCH: MessageSearch = {
  page: 1,
  limit: PAGE_LIMITS.messages.default,
  direction: 'desc',
  list: null,
  q: '',
};

/** Longest search kept from a URL. */
const MAX_SEARCH_LENGTH = 200;

/** Reads the list's state from the URL; anything unreadable falls back to its default. */
export function readMessageSearch(params: URLSearchParams): MessageSearch {
  const page = params.get('page') ?? '';
  const limit = Number(params.get('limit'));
  return {
    page: /^[1-9]\d{0,8}$/.test(page) ? Number(page) : 1,
    limit: PAGE_SIZES.find((size) => size === limit) ?? DEFAULT_MESSAGE_SEARCH.limit,
    direction: params.get('direction') === 'asc' ? 'asc' : 'desc',
    list: params.get('list') || null,
    q: (params.get('q') ?? '').slice(0, MAX_SEARCH_LENGTH),
  };
}

/** The URL form of a state; defaults are left out so a plain `/messages` stays plain. */
export function writeMessageSearch(state: MessageSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (state.page > 1) params.set('page', String(state.page));
  if (state.limit !== DEFAULT_MESSAGE_SEARCH.limit) params.set('limit', String(state.limit));
  if (state.direction !== DEFAULT_MESSAGE_SEARCH.direction)
    params.set('direction', state.direction);
  if (state.list !== null) params.set('list', state.list);
  if (state.q !== '') params.set('q', state.q);
  return params;
}

/** The API query (spec §4.5 get many) for a state. */
export function toMessageQuery(state: MessageSearch): MessageQuery {
  return { page: state.page, limit: state.limit, direction: state.direction };
}
