import { ApiError } from '../../../../api/errors.ts';
import type { Id } from '../../../../api/primitives.ts';
import type { AccountId } from '../../../lib/api-client.ts';

/**
 * Messages deleted in this tab. The archive never gives one back (spec §4.5 delete), so asking
 * for it again would only spend the hourly allowance on a 404: every read of a message checks
 * here first, whatever starts it (a refetch, the thread search, the back button).
 */
const deleted = new Set<string>();

const keyOf = (accountId: AccountId, id: Id) => `${accountId ?? ''}\u0000${String(id)}`;

export function markDeleted(accountId: AccountId, ids: readonly Id[]): void {
  for (const id of ids) deleted.add(keyOf(accountId, id));
}

export function isDeleted(accountId: AccountId, id: Id): boolean {
  return deleted.has(keyOf(accountId, id));
}

/** Throws the archive's answer for a message deleted in this tab, without asking the server. */
export function refuseDeleted(accountId: AccountId, id: Id): void {
  if (isDeleted(accountId, id)) throw new ApiError(404, 'The message was deleted');
}
