import { createApiClient, type ApiClient, type ApiClientOptions } from '../../api/client.ts';
import { getConfig } from './config.ts';
import { fetchThroughGateway } from './gateway-fetch.ts';
import { authorization } from './session.ts';

/**
 * The `account_id` a request sends (spec §4.8): an account of the group for a global principal,
 * or null (an account key's own account; group-wide operations such as /accounts/).
 * Every query key starts with it, so one account's data is never read under another's.
 */
export type AccountId = string | null;

/**
 * The API is authorized by the `Authorization` header alone, so requests carry no cookies. That
 * also keeps the browser from answering a 401 `WWW-Authenticate: Basic` with its own password
 * prompt (Fetch: the prompt needs credentials mode "include" or "same-origin").
 */
const fetchWithoutCookies: typeof fetch = (input, init) =>
  fetch(input, { ...init, credentials: 'omit' });

/** How every request of the dashboard goes: through the gateway (its cookie), else cookieless. */
export const dashboardFetch = (): typeof fetch =>
  getConfig().gateway ? fetchThroughGateway : fetchWithoutCookies;

/** A client against the configured server; `auth` is asked before each request. */
export function createDashboardClient(
  auth: ApiClientOptions['auth'],
  accountId: AccountId = null,
): ApiClient {
  return createApiClient({
    baseUrl: getConfig().apiBaseUrl,
    auth,
    accountId,
    fetch: dashboardFetch(),
  });
}

const clients = new Map<AccountId, ApiClient>();

/** The typed API client for one account, signed in as the session's principal. */
export function apiFor(accountId: AccountId): ApiClient {
  let client = clients.get(accountId);
  if (!client) {
    client = createDashboardClient(authorization, accountId);
    clients.set(accountId, client);
  }
  return client;
}
