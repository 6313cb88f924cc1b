import { describe, expect, it } from 'vitest';
import type { MemberRequest } from '../../../../api/schemas/request.ts';
import {
  describeRequest,
  readRequestsSearch,
  requestCounts,
  requestsLink,
  requestsQuery,
} from './requests-search.ts';

const read = (search: string) => readRequestsSearch(new URLSearchParams(search));

describe('readRequestsSearch: the queue as its URL says', () => {
  it('reads the list, the kind and the page', () => {
    expect(read('list=news&kind=leave&page=3')).toEqual({ list: 'news', kind: 'leave', page: 3 });
  });

  it('takes an unknown kind, a bad page or an empty list as every one and page 1', () => {
    expect(read('kind=JOIN&page=0&list=')).toEqual({ list: undefined, kind: undefined, page: 1 });
    expect(read('page=-2')).toMatchObject({ page: 1 });
    expect(read('page=2.5')).toMatchObject({ page: 1 });
    expect(read('page=1e3')).toMatchObject({ page: 1 });
  });
});

describe('requestsQuery: what the page asks the server', () => {
  it('sends only the filters the URL names, with the default page size', () => {
    expect(requestsQuery(read(''))).toEqual({ page: 1, limit: 25 });
    expect(requestsQuery(read('list=news&kind=join&page=2'))).toEqual({
      page: 2,
      limit: 25,
      list: 'news',
      kind: 'join',
    });
  });
});

describe('requestsLink: a filter’s link', () => {
  const search = read('list=news&kind=join&page=4');

  it('keeps the other filter and goes back to page 1', () => {
    expect(requestsLink(search, { kind: 'leave' })).toBe('?list=news&kind=leave');
    expect(requestsLink(search, { list: 'events' })).toBe('?list=events&kind=join');
  });

  it('drops a filter set to every one', () => {
    expect(requestsLink(search, { list: undefined })).toBe('?kind=join');
    expect(requestsLink(read(''), { kind: undefined })).toBe('?');
  });
});

describe('requestCounts: what the filters count', () => {
  const lists = [
    { list: 'events', join: 1, leave: 0 },
    { list: 'news', join: 2, leave: 3 },
  ];

  it('counts every list, and each kind in the list picked', () => {
    expect(requestCounts(lists, undefined)).toEqual({ total: 6, join: 3, leave: 3 });
    expect(requestCounts(lists, 'news')).toEqual({ total: 6, join: 2, leave: 3 });
    expect(requestCounts(lists, 'gone')).toEqual({ total: 6, join: 0, leave: 0 });
  });
});

describe('describeRequest', () => {
  it('names the address, the kind and the list', () => {
    const request: MemberRequest = {
      id: 7,
      list: 'news',
      kind: 'leave',
      address: 'ann@example.org',
      source: 'mail',
      created: '2026-03-01T10:00:00.000Z',
      confirmed: null,
      expires: '2026-03-04T10:00:00.000Z',
    };
    expect(describeRequest(request)).toBe('ann@example.org’s request to leave news');
  });
});
