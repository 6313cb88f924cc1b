import { ACCOUNT_ID_PARAM } from '../../api/constants.ts';
import { takeField, type BodySource } from '../../api/form-encoding.ts';
import type { OperationName } from '../../api/operations.ts';
import type { Principal } from '../auth/principal.ts';
import type { MaybePromise } from '../lib/maybe-promise.ts';
import { findAccountById, type AccountRow } from '../repositories/accounts.repository.ts';
import type { AppDeps } from './app-deps.ts';
import { HttpError, badRequest, forbidden } from './http-error.ts';
import { queryStringOf } from './url-parts.ts';

/**
 * Spec §4.8: `account_id` comes in the query; clients that send every field in the body send it
 * there too. Taken out of both before their own fields are read, as it chooses the account:
 * answers it, the query's other parameters (null: none) and the body's other fields.
 */
export function takeAccountId(
  url: string,
  sent: BodySource | null,
): { accountId: string | null; query: URLSearchParams | null; body: BodySource | null } {
  const queryString = queryStringOf(url);
  const search = queryString === '' ? null : new URLSearchParams(queryString);
  const fromBody = sent ? takeField(sent, ACCOUNT_ID_PARAM) : null;
  const accountId = requestedAccountId([
    ...(search?.getAll(ACCOUNT_ID_PARAM) ?? []),
    ...(fromBody?.values ?? []),
  ]);
  search?.delete(ACCOUNT_ID_PARAM);
  return { accountId, query: search?.size ? search : null, body: fromBody?.rest ?? null };
}

/**
 * Spec §4.8's `account_id`, from the query and the body: one account, however often it is named
 * (an empty value names none). Two different ones are refused.
 */
export function requestedAccountId(values: readonly unknown[]): string | null {
  let chosen: string | null = null;
  for (const value of values) {
    if (value === '' || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number')
      throw badRequest(`${ACCOUNT_ID_PARAM}: is not an account identifier`);
    const text = String(value);
    if (chosen !== null && canonicalAccountId(chosen) !== canonicalAccountId(text))
      throw badRequest(`${ACCOUNT_ID_PARAM}: given more than once, naming different accounts`);
    chosen = text;
  }
  return chosen;
}

/** Equal ids compare equal however written (`7`, `07`); anything else compares as text. */
function canonicalAccountId(text: string): string {
  return /^\d{1,12}$/.test(text) ? String(Number(text)) : text;
}

/** Spec §4.8: a global key names its account with `account_id`; an account key is confined to its own. */
export function resolveAccount(
  deps: AppDeps,
  principal: Principal,
  name: OperationName,
  accountIdText: string | null,
  global: boolean,
): MaybePromise<AccountRow | null> {
  if (global) {
    if (principal.accountId !== null) throw forbidden('Accounts are managed with a global key');
    return null;
  }
  let accountId = principal.accountId;
  if (accountIdText !== null) {
    if (!/^\d{1,12}$/.test(accountIdText))
      throw badRequest(`${ACCOUNT_ID_PARAM}: is not an account identifier`);
    const requested = Number(accountIdText);
    if (principal.accountId !== null && requested !== principal.accountId) {
      throw forbidden(`${ACCOUNT_ID_PARAM} is for global keys: this key belongs to one account`);
    }
    accountId = requested;
  }
  if (accountId === null) {
    // Spec §4.8 rule 2: on /users/ a global key without account_id means the global users. The
    // caller.get extension reads no account's data, so it needs none either; the audit log's
    // without one is the group's (accounts and global administrators, audit/audit-read.ts).
    if (name.startsWith('users.') || name === 'caller.get' || name === 'audit.list') return null;
    throw badRequest(`${ACCOUNT_ID_PARAM} is required with a global key`);
  }
  const account = deps.authCache.account(accountId, () => findAccountById(deps.db, accountId));
  return account instanceof Promise ? account.then(foundAccount) : foundAccount(account);
}

function foundAccount(account: AccountRow | undefined): AccountRow {
  if (!account) throw new HttpError(404, 'Account not found');
  return account;
}
