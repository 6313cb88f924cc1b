import { describe, expect, it } from 'vitest';
import type { HeldMessage, HeldPage } from '../../../../api/schemas/held.ts';
import { withoutHeld } from './held-page-data.ts';

const held = (id: number, list: string): HeldMessage => ({
  id,
  list,
  subject: `Held ${id}`,
  from_phrase: '',
  from_address: 'a@example.org',
  received: 1_700_000_000,
  size: 100,
  message_id: `<${id}@example.org>`,
  rule: 'hold-all',
  setting: 'moderate',
  reason: 'The list holds every message.',
  reasons: [],
});

const page: HeldPage = {
  count: 5,
  page: 1,
  data: [held(1, 'news'), held(2, 'news'), held(3, 'events')],
  lists: [
    { list: 'events', count: 1 },
    { list: 'news', count: 4 },
  ],
};

describe('withoutHeld: the queue as shown while actions are under way', () => {
  it('drops the rows, the total and each list’s count; a list left empty goes', () => {
    const after = withoutHeld({ supported: true, value: page }, [2, '3']);
    expect(after).toEqual({
      supported: true,
      value: { count: 3, page: 1, data: [held(1, 'news')], lists: [{ list: 'news', count: 3 }] },
    });
  });

  it('leaves an answer alone when none of the ids is on it, and a server without the queue', () => {
    const answer = { supported: true as const, value: page };
    expect(withoutHeld(answer, [99])).toBe(answer);
    expect(withoutHeld({ supported: false }, [1])).toEqual({ supported: false });
    expect(withoutHeld(undefined, [1])).toBeUndefined();
  });
});
