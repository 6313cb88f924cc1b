import { accountQueries } from '../features/accounts/api/account-queries.ts';
import { lastAccount, sectionPath, type Section } from '../lib/account-scope.ts';
import { queryClient } from './query-client.ts';

/**
 * Where a global principal lands without an account in the URL: the account it used last in this
 * tab, else the first by name; the accounts page when the group has none.
 */
export async function defaultAccountPath(section: Section): Promise<string> {
  const accounts = await queryClient.fetchQuery(accountQueries.list());
  const last = lastAccount();
  const account = accounts.find((a) => String(a.id) === last) ?? accounts[0];
  return account ? sectionPath(String(account.id), section) : '/accounts';
}
