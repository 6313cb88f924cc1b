import { describe, expect, it } from 'vitest';
import type { MemberRequest, RequestPage } from '../../../../api/schemas/request.ts';
import { withoutRequests } from './request-page-data.ts';

const request = (id: number, list: string, kind: 'join' | 'leave'): MemberRequest => ({
  id,
  list,
  kind,
  address: `person${id}@example.org`,
  source: 'web',
  created: '2026-03-01T10:00:00.000Z',
  confirmed: '2026-03-01T10:05:00.000Z',
  expires: '2026-03-31T10:05:00.000Z',
});

const page: RequestPage = {
  count: 4,
  page: 1,
  data: [request(1, 'news', 'join'), request(2, 'news', 'leave'), request(3, 'events', 'join')],
  lists: [
    { list: 'events', join: 1, leave: 0 },
    { list: 'news', join: 2, leave: 1 },
  ],
};

describe('withoutRequests: the queue as shown while actions are under way', () => {
  it('drops the rows, the total and each list’s count of their kind; a list left empty goes', () => {
    expect(withoutRequests({ supported: true, value: page }, ['2', '3'])).toEqual({
      supported: true,
      value: {
        count: 2,
        page: 1,
        data: [request(1, 'news', 'join')],
        lists: [{ list: 'news', join: 2, leave: 0 }],
      },
    });
  });

  it('leaves an answer alone when none of the keys is on it, and a server without the queue', () => {
    const answer = { supported: true as const, value: page };
    expect(withoutRequests(answer, ['99'])).toBe(answer);
    expect(withoutRequests({ supported: false }, ['1'])).toEqual({ supported: false });
    expect(withoutRequests(undefined, ['1'])).toBeUndefined();
  });
});
