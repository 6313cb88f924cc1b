import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../../api/errors.ts';
import type { Id } from '../../../../api/primitives.ts';
import type { Message } from '../../../../api/schemas/message.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-error-message.ts';
import { toCsv } from '../../../lib/csv.ts';
import { runJob, type Job, type JobFailure } from '../../../lib/job-runner.ts';
import { messageQueries } from './message-queries.ts';

/** After deletions: the deleted messages are not fetched again; lists, threads and pages are. */
export function afterMessagesDeleted(
  queryClient: QueryClient,
  accountId: AccountId,
  ids: readonly Id[],
) {
  for (const id of ids) {
    queryClient.removeQueries({ queryKey: messageQueries.detail(accountId, id).queryKey });
  }
  return queryClient.invalidateQueries({ queryKey: messageQueries.all(accountId) });
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
 * deleted. The account's message queries are refreshed when the job ends.
 */
export function startBulkDelete(
  queryClient: QueryClient,
  accountId: AccountId,
  messages: readonly Message[],
): Job<Message> {
  const api = apiFor(accountId);
  const job = runJob(
    messages,
    async (message) => {
      try {
        await api.messages.delete(message.id);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    },
    { describe: describeError },
  );
  void job.finished.then(() =>
    afterMessagesDeleted(
      queryClient,
      accountId,
      messages.map((message) => message.id),
    ),
  );
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
