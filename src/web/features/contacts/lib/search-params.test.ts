import { describe, expect, it } from 'vitest';
import {
  readContactSearch,
  toContactQuery,
  writeContactSearch,
  type ContactSearch,
} from './search-params.ts';

describe('contact search in the URL', () => {
  it('reads defaults from an empty URL and writes them back as nothing', () => {
    const state = readContactSearch(new URLSearchParams());
    expect(state).toEqual({ search: '', email: '', list: '', orphans: false, page: 1, limit: 25 });
    expect(writeContactSearch(state).toString()).toBe('');
  });

  it('round-trips every field', () => {
    const state: ContactSearch = {
      search: 'smith & co',
      email: 'a@b.example',
      list: '',
      orphans: true,
      page: 3,
      limit: 1000,
    };
    expect(readContactSearch(writeContactSearch(state))).toEqual(state);
  });

  it('keeps the list filter, which excludes contacts on no list', () => {
    const state = readContactSearch(new URLSearchParams('list=news&orphans=1&page=2'));
    expect(state).toMatchObject({ list: 'news', orphans: false, page: 2 });
    expect(writeContactSearch({ ...state, orphans: true }).toString()).toBe('list=news&page=2');
    expect(toContactQuery(state)).toEqual({ page: 2, limit: 25 });
  });

  it('ignores page sizes the table does not offer and pages that are not positive integers', () => {
    const state = readContactSearch(new URLSearchParams('limit=50&page=-2'));
    expect(state.limit).toBe(25);
    expect(state.page).toBe(1);
    expect(readContactSearch(new URLSearchParams('page=1.5')).page).toBe(1);
  });

  it('sends only the filters that are set, trimmed', () => {
    expect(toContactQuery(readContactSearch(new URLSearchParams('q=%20ann%20&page=2')))).toEqual({
      page: 2,
      limit: 25,
      search: 'ann',
    });
    expect(
      toContactQuery(readContactSearch(new URLSearchParams('orphans=1&email=x@y.example'))),
    ).toEqual({ page: 1, limit: 25, email: 'x@y.example', orphans: true });
  });
});
