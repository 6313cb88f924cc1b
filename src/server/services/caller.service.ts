import type { Kysely } from 'kysely';
import type { Caller } from '../../api/schemas/caller.ts';
import { PASSWORD_LINK_DAYS } from '../administrators/password-links.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { findAccountById } from '../repositories/accounts.repository.ts';
import { toAdministrator } from '../repositories/users.mapper.ts';
import { findAdministratorById } from '../repositories/users.repository.ts';

/**
 * The `caller.get` extension: the request's address and the administrator entry behind its key or
 * token, with that entry's own account. Only the caller's own entry: nothing of the account that
 * `account_id` addresses (a global key's account is null, spec §4.8).
 */
export async function describeCaller(
  db: Kysely<Database>,
  principal: Principal,
  address: string,
): Promise<Caller> {
  const row = await findAdministratorById(db, principal.accountId, principal.administratorId);
  const account =
    principal.accountId === null ? null : await findAccountById(db, principal.accountId);
  // Issue 27 item 4: the dashboard says what "Send a welcome email" will do before it is sent.
  const welcome_email = { password_link_days: PASSWORD_LINK_DAYS };
  if (!row) return { address, welcome_email };
  const entry = toAdministrator(row);
  return {
    address,
    welcome_email,
    administrator: {
      id: entry.id,
      username: entry.username ?? null,
      description: entry.description ?? null,
      firstname: entry.firstname,
      surname: entry.surname,
      // What the request may do: an access token's principal is its granter's (spec §5.2 rule 3).
      permissions: [...principal.permissions],
      limit_lists: [...principal.limitLists],
      limit_metadata: [...principal.limitMetadata],
    },
    account: account ? { id: account.id, name: account.name } : null,
  };
}
