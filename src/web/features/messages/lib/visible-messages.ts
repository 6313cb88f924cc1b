import type { Message, MessagePage } from '../../../../api/schemas/message.ts';
import type { MessageSearch } from './search-params.ts';
import { threadsOfPage, type ThreadGroup } from './threads.ts';

/** Whether a message passes the list filter and the search (case-insensitive, in what is loaded). */
export function matchesSearch(
  message: Message,
  search: Pick<MessageSearch, 'list' | 'q'>,
): boolean {
  if (search.list !== null && message.list !== search.list) return false;
  const words = search.q.trim().toLowerCase();
  if (words === '') return true;
  return [message.subject, message.from_phrase, message.from_address, message.content_plain].some(
    (text) => text.toLowerCase().includes(words),
  );
}

export interface VisibleMessages {
  /** The page's messages that pass the filter and the search, grouped by thread. */
  groups: ThreadGroup[];
  /** The same, in the order of the rows: the order j/k and next/previous follow. */
  rows: Message[];
  /** Pages of the whole list (spec §4.5 `count`), for the unfiltered paging. */
  pages: number;
  /** The lists the page's messages went to, sorted: what the list filter offers. */
  lists: string[];
}

/**
 * One page of the archive as the messages list shows it. Messages in `gone` (deleted in this tab,
 * before the page is read again) are left out.
 */
export function visibleMessages(
  page: MessagePage,
  search: MessageSearch,
  gone: (message: Message) => boolean = () => false,
): VisibleMessages {
  const pages = Math.max(1, Math.ceil(page.count / search.limit));
  // A reply is newer than what it answers: at the newest end, no thread continues on another page.
  const atNewestEnd = search.direction === 'desc' ? search.page === 1 : search.page >= pages;
  const present = page.data.filter((message) => !gone(message));
  const groups = threadsOfPage(
    present.filter((message) => matchesSearch(message, search)),
    atNewestEnd,
  );
  return {
    groups,
    rows: groups.flatMap((group) => group.rows.map((row) => row.message)),
    pages,
    lists: [...new Set(present.map((message) => message.list))].sort(),
  };
}
