import { ApiError } from '../../../../api/errors.ts';
import type { Id } from '../../../../api/primitives.ts';
import type { Message, MessagePage, MessageQuery } from '../../../../api/schemas/message.ts';

/**
 * How the thread of a message is found with spec §4.5 alone (it has no thread filter): its
 * ancestors one by one through `parent`, then the newest messages, a page at a time, down to the
 * thread's first message: every reply is newer than what it answers, so none is older than that.
 * Bounded, since each message read counts against the hourly allowance (spec §8).
 */
export const THREAD_SEARCH = { pageSize: 50, maxPages: 6, maxDepth: 50 } as const;

export interface FoundThread {
  /** The thread's messages found, this one included. */
  messages: Message[];
  /** The search reached the thread's first message: nothing of the thread is missing. */
  complete: boolean;
  /** Messages read while searching (the ancestors, then the newest ones). */
  read: number;
}

export interface ThreadReader {
  message: (id: Id) => Promise<Message>;
  page: (query: MessageQuery) => Promise<MessagePage>;
}

const same = (a: Id, b: Id) => String(a) === String(b);

/** The thread of `message` (spec §2.5 `thread_id`, `parent`). */
export async function findThread(message: Message, read: ThreadReader): Promise<FoundThread> {
  const found = new Map<string, Message>([[String(message.id), message]]);
  let count = 0;
  let first = message;
  for (let depth = 0; first.parent !== null && depth < THREAD_SEARCH.maxDepth; depth += 1) {
    try {
      first = await read.message(first.parent);
    } catch (error) {
      // A parent deleted meanwhile: the thread is read from what remains.
      if (error instanceof ApiError && error.status === 404) break;
      throw error;
    }
    count += 1;
    found.set(String(first.id), first);
  }
  let reachedFirst = false;
  for (let page = 1; page <= THREAD_SEARCH.maxPages && !reachedFirst; page += 1) {
    const result = await read.page({ page, limit: THREAD_SEARCH.pageSize, direction: 'desc' });
    count += result.data.length;
    for (const candidate of result.data) {
      if (same(candidate.thread_id, message.thread_id)) found.set(String(candidate.id), candidate);
      if (same(candidate.id, first.id)) reachedFirst = true;
    }
    if (page * THREAD_SEARCH.pageSize >= result.count) break;
  }
  return {
    messages: [...found.values()],
    complete: reachedFirst && first.parent === null,
    read: count,
  };
}
