import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../api/schemas/message.ts';
import { DEFAULT_MESSAGE_SEARCH } from './search-params.ts';
import { matchesSearch, visibleMessages } from './visible-messages.ts';

const message = (id: number, fields: Partial<Message> = {}): Message => ({
  id,
  subject: `Subject ${id}`,
  from_phrase: '',
  from_address: `sender${id}@example.org`,
  list: 'news',
  time: 1_700_000_000 + id,
  message_id: `<${id}@example.org>`,
  thread_id: id,
  content_plain: '',
  content_html: '',
  parent: null,
  ...fields,
});

describe('matchesSearch: the list filter and the search in what is loaded', () => {
  it('filters by list, and searches subject, sender and plain text without case', () => {
    const m = message(1, {
      list: 'events',
      subject: 'Invoice March',
      from_phrase: 'Ann Lee',
      content_plain: 'The Venue moved',
    });
    expect(matchesSearch(m, { list: null, q: '' })).toBe(true);
    expect(matchesSearch(m, { list: 'news', q: '' })).toBe(false);
    expect(matchesSearch(m, { list: 'events', q: 'invoice' })).toBe(true);
    expect(matchesSearch(m, { list: null, q: 'ann lee' })).toBe(true);
    expect(matchesSearch(m, { list: null, q: 'SENDER1@' })).toBe(true);
    expect(matchesSearch(m, { list: null, q: ' venue ' })).toBe(true);
    expect(matchesSearch(m, { list: null, q: 'refund' })).toBe(false);
  });
});

describe('visibleMessages: a page as the list shows it', () => {
  const page = {
    count: 25,
    page: 1,
    data: [
      message(5, { list: 'news' }),
      message(4, { list: 'events', subject: 'Party' }),
      message(3, { list: 'news', parent: 1, thread_id: 1 }),
      message(2, { list: 'events' }),
      message(1, { list: 'news' }),
    ],
  };

  it('orders rows by thread and offers the lists of the page', () => {
    const visible = visibleMessages(page, DEFAULT_MESSAGE_SEARCH);
    expect(visible.rows.map((m) => m.id)).toEqual([5, 4, 1, 3, 2]);
    expect(visible.lists).toEqual(['events', 'news']);
    expect(visible.pages).toBe(3);
  });

  it('keeps only what passes the filter, and leaves deleted messages out', () => {
    const search = { ...DEFAULT_MESSAGE_SEARCH, list: 'news' };
    expect(visibleMessages(page, search).rows.map((m) => m.id)).toEqual([5, 1, 3]);
    const gone = (m: Message) => m.id === 1;
    expect(visibleMessages(page, search, gone).rows.map((m) => m.id)).toEqual([5, 3]);
    expect(
      visibleMessages(page, { ...DEFAULT_MESSAGE_SEARCH, q: 'party' }).rows.map((m) => m.id),
    ).toEqual([4]);
  });
});
