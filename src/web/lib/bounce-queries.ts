import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../api/primitives.ts';
import type { BounceState } from '../../api/schemas/bounce.ts';
import { apiFor, type AccountId } from './api-client.ts';
import { callExtension } from './extensions.ts';
import { rootKeys } from './query-keys.ts';

/** Whose bounce states a page shows: a list's members or one contact's addresses. */
export type BounceScope = { list: string } | { contact: Id };

/**
 * The reference server's bounce states (extension `bounces.*`, issue 26 item 1; permission
 * `contact` or `membership`). Keys: `[accountId, 'contacts', 'bounces', scope]`: under the
 * contacts, so that any change to an address (a `paused` set by hand forgets its bounces, the
 * server's bounces/clear.ts) reads them again. A server without the extension answers
 * `{supported: false}` (lib/extensions.ts): the pages show no bounces and say nothing.
 */
export const bounceQueries = {
  of: (accountId: AccountId, scope: BounceScope) =>
    queryOptions({
      queryKey: [...rootKeys.contacts(accountId), 'bounces', scope] as const,
      queryFn: ({ signal }) => callExtension(() => readAllStates(accountId, scope, signal)),
    }),
};

/**
 * Every page of the scope's states (pages of the server's default size: its types only are
 * imported here, the schemas load with the operation table). Only addresses that bounced have one.
 */
async function readAllStates(
  accountId: AccountId,
  scope: BounceScope,
  signal: AbortSignal,
): Promise<BounceState[]> {
  const states: BounceState[] = [];
  for (let page = 1; ; page++) {
    const answer = await apiFor(accountId).call('bounces.list', {
      query: { ...scope, page },
      signal,
    });
    states.push(...answer.data);
    if (answer.data.length === 0 || states.length >= answer.count) return states;
  }
}

/**
 * Clears an address's bounces (`bounces.clear`): its score and last bounce are forgotten and a
 * pause they made is lifted, so the contacts (spec §2.2 `paused`) are read again with the states.
 */
export function useClearBounces(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'bounces', 'clear'],
    mutationFn: (email: Id) => apiFor(accountId).call('bounces.clear', { params: { id: email } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.contacts(accountId) }),
  });
}
