import { useMutation, useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../../api/errors.ts';
import type { Id } from '../../../../api/primitives.ts';
import type { Message } from '../../../../api/schemas/message.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import type { StartJob } from '../../../lib/start-job.ts';
import { describeError } from '../../../lib/api-error-message.ts';
import { toCsv } from '../../../lib/csv.ts';
import type { Job, JobFailure } from '../../../lib/job-runner.ts';
import { markDeleted } from './deleted-messages.ts';
import { messageQueries } from './message-queries.ts';

/** The queries of one message: `[account, 'messages', 'detail' | 'thread' | 'images', id, …]`. */
const PER_MESSAGE = new Set(['detail', 'thread', 'images']);

/**
 * After deletions: the lists, pages and other threads are read again; nothing about a deleted
 * message is (deleted-messages.ts refuses any read of it). Its queries are left out of the
 * invalidation, so a page still showing it keeps its data until it moves on (delete-and-next),
 * and removed once nothing shows them.
 */
export function afterMessagesDeleted(
  queryClient: QueryClient,
  accountId: AccountId,
  ids: readonly Id[],
) {
  markDeleted(accountId, ids);
  const gone = new Set(ids.map(String));
  const aboutGone = (query: Query) => {
    const [, , kind, id] = query.queryKey;
    return typeof kind === 'string' && PER_MESSAGE.has(kind) && gone.has(String(id));
  };
  queryClient.removeQueries({
    queryKey: messageQueries.all(accountId),
    predicate: (query) => aboutGone(query) && query.getObserversCount() === 0,
  });
  return queryClient.invalidateQueries({
    queryKey: messageQueries.all(accountId),
    predicate: (query) => !aboutGone(query),
  });
}

/**
 * Spec §4.5 delete. On the reference server the message's replies then answer its parent.
 *
 * @example
 * useDeleteMessage(accountId).mutate(messageId, { onSuccess: close });
 */
export function useDeleteMessage(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'messages', 'delete'],
    mutationFn: (id: Id) => apiFor(accountId).messages.delete(id),
    onSuccess: (_data, id) => afterMessagesDeleted(queryClient, accountId, [id]),
  });
}

/**
 * Deletes many messages as a visible job (lib/job-runner.ts): a few at a time, waiting
 * out the rate limit (spec §8) and retrying transient failures. A message already gone counts as
 * deleted. The account's message queries are refreshed when the job ends. Null: not started
 * (lib/start-job.ts).
 */
export async function startBulkDelete(
  start: StartJob,
  queryClient: QueryClient,
  accountId: AccountId,
  messages: readonly Message[],
): Promise<Job<Message> | null> {
  const api = apiFor(accountId);
  const gone: Id[] = [];
  const job = await start(
    messages,
    async (message) => {
      try {
        await api.messages.delete(message.id);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      gone.push(message.id);
    },
    { describe: describeError },
  );
  if (!job) return null;
  // Only those deleted (or already gone): a failed or cancelled one may still be read.
  void job.finished.then(() => afterMessagesDeleted(queryClient, accountId, gone));
  return job;
}

/** The messages a job could not delete, with why, as CSV. */
export function failedMessagesCsv(failures: readonly JobFailure<Message>[]): string {
  return toCsv([
    ['id', 'subject', 'from', 'error'],
    ...failures.map(({ item, message }) => [
      String(item.id),
      item.subject,
      item.from_address,
      message,
    ]),
  ]);
}
