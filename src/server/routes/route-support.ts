import type { AccountRow } from '../repositories/accounts.repository.ts';

/**
 * The account of an account-scoped route. define-route resolves it (spec §4.8) and leaves it null
 * only for the group-wide operations (accounts, global users), so null here is a wiring mistake.
 */
export function requireAccount(account: AccountRow | null): AccountRow {
  if (!account) throw new Error('An account-scoped route ran without an account');
  return account;
}
