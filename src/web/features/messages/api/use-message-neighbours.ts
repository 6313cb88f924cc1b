import { useQuery } from '@tanstack/react-query';
import type { Message } from '../../../../api/schemas/message.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { toMessageQuery, type MessageSearch } from '../lib/search-params.ts';
import { visibleMessages } from '../lib/visible-messages.ts';
import { isDeleted } from './deleted-messages.ts';
import { messageQueries } from './message-queries.ts';

/** A message next to the one shown, and the list state (its page) it is found under. */
export interface Neighbour {
  message: Message;
  search: MessageSearch;
}

export interface MessageNeighbours {
  /** The list's page is still being read: where the message stands in it is not known yet. */
  loading: boolean;
  /** The message is on the list page `search` names, after its filter and search. */
  found: boolean;
  /** Its place among the page's matching messages (1-based), and how many there are. */
  position: number;
  total: number;
  previous: Neighbour | null;
  next: Neighbour | null;
}

/**
 * The messages before and after one, in the order of the list it was opened from (its page, order,
 * list filter and search, all in the URL). The list's page is the one the list just showed, so
 * no request is made for it; at either end of the page the neighbouring page is read, once.
 */
export function useMessageNeighbours(
  accountId: AccountId,
  messageId: string,
  search: MessageSearch,
): MessageNeighbours {
  const gone = (message: Message) => isDeleted(accountId, message.id);
  const page = useQuery(messageQueries.list(accountId, toMessageQuery(search)));
  const visible = page.data ? visibleMessages(page.data, search, gone) : null;
  const rows = visible?.rows ?? [];
  const index = rows.findIndex((message) => String(message.id) === messageId);
  const found = index !== -1;

  const before = { ...search, page: search.page - 1 };
  const after = { ...search, page: search.page + 1 };
  const needBefore = found && index === 0 && search.page > 1;
  const needAfter = found && index === rows.length - 1 && search.page < (visible?.pages ?? 1);
  const beforePage = useQuery({
    ...messageQueries.list(accountId, toMessageQuery(before)),
    enabled: needBefore,
  });
  const afterPage = useQuery({
    ...messageQueries.list(accountId, toMessageQuery(after)),
    enabled: needAfter,
  });

  const at = (message: Message | undefined, where: MessageSearch) =>
    message ? { message, search: where } : null;
  const previous = !found
    ? null
    : index > 0
      ? at(rows[index - 1], search)
      : needBefore && beforePage.data
        ? at(visibleMessages(beforePage.data, before, gone).rows.at(-1), before)
        : null;
  const next = !found
    ? null
    : index < rows.length - 1
      ? at(rows[index + 1], search)
      : needAfter && afterPage.data
        ? at(visibleMessages(afterPage.data, after, gone).rows[0], after)
        : null;
  return {
    loading: page.isPending,
    found,
    position: index + 1,
    total: rows.length,
    previous,
    next,
  };
}
