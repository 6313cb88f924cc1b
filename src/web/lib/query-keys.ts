import type { QueryKey } from '@tanstack/react-query';
import type { AccountId } from './api-client.ts';

/**
 * The roots of the dashboard's query keys, one per resource; each resource's factory
 * (lib/contact-queries.ts, features/<feature>/api/*-queries.ts) builds on its root, and a change
 * that touches another resource invalidates that root. Every key starts with the account it reads,
 * so that a 429 raises that account's banner (app/query-client.ts, `accountOf`).
 */
export const rootKeys = {
  contacts: (accountId: AccountId) => [accountId, 'contacts'] as const,
  lists: (accountId: AccountId) => [accountId, 'lists'] as const,
  messages: (accountId: AccountId) => [accountId, 'messages'] as const,
  held: (accountId: AccountId) => [accountId, 'held'] as const,
  requests: (accountId: AccountId) => [accountId, 'requests'] as const,
  administrators: (accountId: AccountId) => [accountId, 'administrators'] as const,
  /** The group's accounts (spec §4.7): group-wide, sent without `account_id`. */
  accounts: () => [null, 'accounts'] as const,
  /** One account's every §2.7 field. */
  account: (id: string | number) => [null, 'accounts', 'detail', String(id)] as const,
};

/** The account a query or mutation key was asked for (its first element). */
export function accountOf(key: QueryKey | undefined): AccountId {
  const first = key?.[0];
  return typeof first === 'string' ? first : null;
}
