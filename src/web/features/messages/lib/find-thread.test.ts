import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../api/errors.ts';
import type { Id } from '../../../../api/primitives.ts';
import type { Message, MessageQuery } from '../../../../api/schemas/message.ts';
import { findThread, THREAD_SEARCH, type ThreadReader } from './find-thread.ts';

function message(id: number, thread: number, parent: number | null = null): Message {
  return {
    id,
    subject: `m${id}`,
    from_phrase: '',
    from_address: 'a@example.org',
    list: 'news',
    time: id,
    message_id: `<m${id}@example.org>`,
    thread_id: thread,
    content_plain: '',
    content_html: '',
    parent,
  };
}

/** An archive (oldest first) read as the server pages it, newest first, counting the reads. */
function archive(messages: Message[]) {
  const newest = [...messages].reverse();
  const reads: string[] = [];
  const reader: ThreadReader = {
    message: async (id: Id) => {
      reads.push(`get ${String(id)}`);
      const found = messages.find((m) => String(m.id) === String(id));
      if (!found) throw new ApiError(404, 'Message not found');
      return found;
    },
    page: async ({ page = 1, limit = 10 }: MessageQuery) => {
      reads.push(`page ${page}`);
      return { count: messages.length, page, data: newest.slice((page - 1) * limit, page * limit) };
    },
  };
  return { reader, reads };
}

const ids = (messages: Message[]) => messages.map((m) => Number(m.id)).sort((a, b) => a - b);

describe('findThread', () => {
  it('finds ancestors by parent and replies among the newest messages, and stops at the first one', async () => {
    const others = Array.from({ length: 60 }, (_, i) => message(100 + i, 100 + i));
    const thread = [message(1, 1), message(2, 1, 1), message(3, 1, 2), message(4, 1, 2)];
    const all = [
      thread[0],
      thread[1],
      ...others.slice(0, 10),
      thread[2],
      thread[3],
      ...others.slice(10),
    ] as Message[];
    const { reader, reads } = archive(all);
    const found = await findThread(thread[2] as Message, reader);
    expect(ids(found.messages)).toEqual([1, 2, 3, 4]);
    expect(found.complete).toBe(true);
    // Two parents, then the pages down to message 1 (the 64th newest): two pages of 50.
    expect(reads).toEqual(['get 2', 'get 1', 'page 1', 'page 2']);
    expect(found.read).toBe(2 + 64);
  });

  it('says the thread may be incomplete when its first message is beyond the pages it reads', async () => {
    const depth = THREAD_SEARCH.pageSize * THREAD_SEARCH.maxPages;
    const filler = Array.from({ length: depth }, (_, i) => message(1000 + i, 1000 + i));
    const { reader, reads } = archive([message(1, 1), ...filler, message(2, 1, 1)]);
    const found = await findThread(message(2, 1, 1), reader);
    expect(ids(found.messages)).toEqual([1, 2]);
    expect(found.complete).toBe(false);
    expect(reads.filter((r) => r.startsWith('page'))).toHaveLength(THREAD_SEARCH.maxPages);
  });

  it('reads on from what remains when a parent is gone', async () => {
    const { reader } = archive([message(2, 1, 1), message(3, 1, 2)]);
    const found = await findThread(message(3, 1, 2), reader);
    expect(ids(found.messages)).toEqual([2, 3]);
    expect(found.complete).toBe(false);
  });

  it('passes on other errors', async () => {
    const failing: ThreadReader = {
      message: () => Promise.reject(new ApiError(500, 'Internal server error')),
      page: () => Promise.reject(new Error('not reached')),
    };
    await expect(findThread(message(2, 1, 1), failing)).rejects.toMatchObject({ status: 500 });
  });
});
