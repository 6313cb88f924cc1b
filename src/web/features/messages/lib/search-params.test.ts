import { describe, expect, it } from 'vitest';
import { readMessageSearch, toMessageQuery, writeMessageSearch } from './search-params.ts';

describe('the messages list in the URL', () => {
  it('reads defaults from an empty URL and writes none back', () => {
    const state = readMessageSearch(new URLSearchParams());
    expect(state).toEqual({ page: 1, limit: 10, direction: 'desc', list: null, q: '' });
    expect(writeMessageSearch(state).toString()).toBe('');
    expect(toMessageQuery(state)).toEqual({ page: 1, limit: 10, direction: 'desc' });
  });

  it('round-trips page, size, direction, list and search; the API query has no list or search', () => {
    const state = { page: 3, limit: 50, direction: 'asc', list: 'news', q: 'a & b' } as const;
    const params = writeMessageSearch(state);
    expect(params.toString()).toBe('page=3&limit=50&direction=asc&list=news&q=a+%26+b');
    expect(readMessageSearch(params)).toEqual(state);
    expect(toMessageQuery(state)).toEqual({ page: 3, limit: 50, direction: 'asc' });
  });

  it('falls back on values the list does not offer', () => {
    const params = new URLSearchParams('page=0&limit=1000&direction=sideways');
    expect(readMessageSearch(params)).toEqual({
      page: 1,
      limit: 10,
      direction: 'desc',
      list: null,
      q: '',
    });
    expect(readMessageSearch(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(200);
    expect(readMessageSearch(new URLSearchParams('page=-2&limit=abc')).page).toBe(1);
  });
});
