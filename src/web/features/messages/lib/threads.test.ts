import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../api/schemas/message.ts';
import { conversationOrder, threadsOfPage } from './threads.ts';

function message(id: number, time: number, thread: number, parent: number | null = null): Message {
  return {
    id,
    subject: `m${id}`,
    from_phrase: '',
    from_address: `m${id}@example.org`,
    list: 'news',
    time,
    message_id: `<m${id}@example.org>`,
    thread_id: thread,
    content_plain: '',
    content_html: '',
    parent,
  };
}

const order = (rows: { message: Message; depth: number }[]) =>
  rows.map((row) => `${String(row.message.id)}@${row.depth}`);

describe('conversationOrder', () => {
  it('puts each reply under the message it answers, replies oldest first', () => {
    const root = message(1, 100, 1);
    const late = message(2, 300, 1, 1);
    const early = message(3, 200, 1, 1);
    const nested = message(4, 400, 1, 3);
    expect(order(conversationOrder([late, nested, root, early]))).toEqual([
      '1@0',
      '3@1',
      '4@2',
      '2@1',
    ]);
  });

  it('starts a branch for a reply whose parent is elsewhere, and orders the same second by id', () => {
    const orphan = message(7, 500, 1, 99);
    const a = message(9, 500, 1, 7);
    const b = message(8, 500, 1, 7);
    expect(order(conversationOrder([a, orphan, b]))).toEqual(['7@0', '8@1', '9@1']);
  });

  it('shows every message of a malformed parent cycle once', () => {
    const a = message(1, 100, 1, 2);
    const b = message(2, 200, 1, 1);
    const self = message(3, 300, 1, 3);
    expect(order(conversationOrder([a, b, self])).sort()).toEqual(['1@0', '2@1', '3@0']);
  });
});

describe('threadsOfPage', () => {
  // Newest first, as page 1 of the default list.
  const page = [
    message(6, 600, 4, 4),
    message(5, 500, 5),
    message(4, 400, 4),
    message(3, 300, 1, 2),
  ];

  it('groups by thread in the order threads first appear, with reply counts', () => {
    const groups = threadsOfPage(page, true);
    expect(groups.map((g) => [g.threadId, order(g.rows), g.replies])).toEqual([
      ['4', ['4@0', '6@1'], 1],
      ['5', ['5@0'], 0],
      ['1', ['3@0'], 1],
    ]);
  });

  it('calls a thread complete only when its first message is there and at the newest end', () => {
    expect(threadsOfPage(page, true).map((g) => g.complete)).toEqual([true, true, false]);
    expect(threadsOfPage(page, false).map((g) => g.complete)).toEqual([false, false, false]);
  });
});
