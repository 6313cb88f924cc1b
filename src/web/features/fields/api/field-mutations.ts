import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type { FieldCreate, FieldUpdate } from '../../../../api/schemas/field.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { callerQueries } from '../../../lib/caller-queries.ts';
import { rootKeys } from '../../../lib/query-keys.ts';
import { fieldQueries } from './field-queries.ts';

/**
 * What a field's change reaches: the fields, every contact (they show each field by its key,
 * spec §2.1; the fields known from contacts are read under their key), and, for a rename or a
 * delete, the administrators whose limit_metadata follows (spec §2.6), the signed-in one included.
 */
async function afterChange(queryClient: QueryClient, accountId: AccountId, limits: boolean) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: fieldQueries.all(accountId) }),
    queryClient.invalidateQueries({ queryKey: rootKeys.contacts(accountId) }),
    ...(limits
      ? [
          queryClient.invalidateQueries({ queryKey: rootKeys.administrators(accountId) }),
          // Read by the shell, not observed: read again now, not when next observed.
          queryClient.invalidateQueries({
            queryKey: callerQueries.self().queryKey,
            refetchType: 'all',
          }),
        ]
      : []),
  ]);
}

/**
 * Defines a field (`fields.create`, permission general_settings).
 *
 * @example
 * const define = useDefineField(accountId);
 * define.mutate({ name: 'Shoe size', identifier: 'shoe' });
 */
export function useDefineField(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...fieldQueries.all(accountId), 'create'],
    mutationFn: (input: FieldCreate) => apiFor(accountId).call('fields.create', { body: input }),
    onSuccess: () => afterChange(queryClient, accountId, false),
  });
}

/** Renames a field (`fields.update`): its values stay, limit_metadata entries follow. */
export function useRenameField(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...fieldQueries.all(accountId), 'update'],
    mutationFn: ({ id, input }: { id: Id; input: FieldUpdate }) =>
      apiFor(accountId).call('fields.update', { params: { id }, body: input }),
    onSuccess: () => afterChange(queryClient, accountId, true),
  });
}

/** Deletes a field (`fields.delete`) and its values; limit_metadata entries lose it. */
export function useDeleteField(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...fieldQueries.all(accountId), 'delete'],
    mutationFn: (id: Id) => apiFor(accountId).call('fields.delete', { params: { id } }),
    onSuccess: () => afterChange(queryClient, accountId, true),
  });
}
