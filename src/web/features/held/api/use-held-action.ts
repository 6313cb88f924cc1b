import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../../../api/client.ts';
import type { HeldMessage, HeldOutcome, HeldPage } from '../../../../api/schemas/held.ts';
import { HELD_BULK_MAX } from '../../../../api/schemas/held.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import type { ExtensionAnswer } from '../../../lib/extensions.ts';
import { rootKeys } from '../../../lib/query-keys.ts';
import type { TriageInput } from '../../../lib/use-undoable-actions.ts';
import { withoutHeld } from '../lib/held-page-data.ts';
import { heldQueries } from './held-queries.ts';

/** An action on held messages; a reject's `reason` is added to the list's reject message. */
export type HeldActionInput = TriageInput<HeldMessage>;

/**
 * Approves, rejects or discards held messages, one (`/held/:id/<action>/`) or many (`/held/bulk/`,
 * all or none, HELD_BULK_MAX a request).
 */
export async function sendHeldAction(
  api: ApiClient,
  { action, items: messages, reason }: HeldActionInput,
): Promise<HeldOutcome[]> {
  const [only] = messages;
  if (messages.length === 1 && only) {
    if (action === 'reject') return [await api.held.reject(only.id, reason)];
    return [await (action === 'approve' ? api.held.approve(only.id) : api.held.discard(only.id))];
  }
  const results = [];
  for (let start = 0; start < messages.length; start += HELD_BULK_MAX) {
    const ids = messages.slice(start, start + HELD_BULK_MAX).map((message) => message.id);
    results.push(...(await api.held.bulk(action, ids, reason)).results);
  }
  return results;
}

/**
 * Sends a held-queue action. Optimistic but honest: the messages leave the queue as shown at once,
 * and come back, with the server's reason, if it refuses (the queue is read again either way).
 * Approved messages join the archive, whose queries are refreshed too.
 */
export function useHeldAction(accountId: AccountId) {
  const queryClient = useQueryClient();
  const lists = heldQueries.lists(accountId);
  return useMutation({
    mutationKey: [...heldQueries.all(accountId), 'act'],
    mutationFn: (input: HeldActionInput) => sendHeldAction(apiFor(accountId), input),
    onMutate: async ({ items: messages }) => {
      await queryClient.cancelQueries({ queryKey: lists });
      const ids = messages.map((message) => message.id);
      queryClient.setQueriesData<ExtensionAnswer<HeldPage>>({ queryKey: lists }, (answer) =>
        withoutHeld(answer, ids),
      );
    },
    onSuccess: (_results, { items: messages }) => {
      for (const message of messages) {
        queryClient.removeQueries({ queryKey: heldQueries.detail(accountId, message.id).queryKey });
      }
    },
    onSettled: (_results, _error, { action }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: lists }),
        // The archive's queries show an approved message once it is there.
        action === 'approve'
          ? queryClient.invalidateQueries({ queryKey: rootKeys.messages(accountId) })
          : undefined,
      ]),
  });
}
