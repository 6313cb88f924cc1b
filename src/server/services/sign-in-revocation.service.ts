import type { Kysely } from 'kysely';
import { grantableScopes } from '../auth/grantable-scopes.ts';
import type { Database } from '../db/schema.ts';
import { principalOfAdministrator } from '../oauth/administrator-principal.ts';
import {
  revokeAdministratorGrants,
  revokeGrant,
  selectLiveGrants,
  setGrantScope,
} from '../oauth/grants.repository.ts';
import { formatScope, scopeSet } from '../oauth/scopes.ts';
import { deleteAdministratorSessions } from '../oauth/sessions.repository.ts';
import type { AdministratorRow } from '../repositories/administrators.repository.ts';

/**
 * SECURITY.md 32, after an administrator's row changed (inside the same transaction):
 * - a new password ends their browser sign-ins and every grant they gave (its access and refresh
 *   tokens go with it): whoever knew the old password, or holds what it opened, is out;
 * - permissions taken away narrow each grant to the scopes the administrator can still give, and a
 *   grant left with none is revoked. Narrowing rather than revoking: the person did nothing wrong
 *   and the client keeps what it may still do; access tokens are narrowed with their grant at once
 *   (auth/authenticate-token.ts) and a refresh never gets the taken scopes back.
 * Deleting an administrator ends everything through the foreign keys (sessions, grants, keys).
 */
export async function endWhatNoLongerHolds(
  db: Kysely<Database>,
  row: AdministratorRow,
  change: { passwordChanged: boolean },
  now: Date,
): Promise<void> {
  const nowIso = now.toISOString();
  if (change.passwordChanged) {
    await deleteAdministratorSessions(db, row.id);
    await revokeAdministratorGrants(db, row.id, nowIso);
    return;
  }
  const allowed = grantableScopes(principalOfAdministrator({ ...row, administrator_id: row.id }));
  for (const grant of await selectLiveGrants(db, row.id)) {
    const kept = [...scopeSet(grant.scope)].filter((scope) => allowed.has(scope));
    if (kept.length === 0) await revokeGrant(db, grant.id, nowIso);
    else if (formatScope(kept) !== grant.scope) await setGrantScope(db, grant.id, formatScope(kept));
  }
}
