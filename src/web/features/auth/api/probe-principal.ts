import type { Auth } from '../../../../api/client.ts';
import { ApiError } from '../../../../api/errors.ts';
import { createDashboardClient } from '../../../lib/api-client.ts';

/**
 * Checks credentials and learns whether they are global (spec §4.8), with the one request every
 * principal can make for free: GET /accounts/ counts against no account's allowance. 200 means a
 * global key or token; 403 (an account key) or 404 (a server without groups) means one account;
 * 401 (the credentials are refused) is thrown.
 */
export async function probePrincipal(auth: Auth): Promise<{ global: boolean }> {
  const api = createDashboardClient(auth);
  try {
    await api.accounts.list();
    return { global: true };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404))
      return { global: false };
    throw error;
  }
}
