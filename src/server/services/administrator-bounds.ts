import type { Kysely } from 'kysely';
import type { Permission } from '../../api/constants.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, forbidden } from '../http/http-error.ts';
import type { AdministratorRow } from '../repositories/administrators.repository.ts';
import { selectAdministrators } from '../repositories/users.repository.ts';

/** What an administrator may do, as far as the rules below compare it with the caller's. */
export interface AdministratorPowers {
  permissions: readonly Permission[];
  limitLists: readonly string[];
  limitMetadata: readonly string[];
}

export function powersOfRow(row: AdministratorRow): AdministratorPowers {
  return {
    permissions: JSON.parse(row.permissions) as Permission[],
    limitLists: JSON.parse(row.limit_lists) as string[],
    limitMetadata: JSON.parse(row.limit_metadata) as string[],
  };
}

/**
 * SECURITY.md 32: a caller cannot make, or take over, an administrator with more than it has.
 * - every permission must be the caller's own; superadmin stands for every permission of its
 *   account but `account` (which makes a global administrator group-wide, spec §4.8);
 * - a caller confined to lists (limit_lists, spec §2.6) or to custom fields (limit_metadata) only
 *   reaches administrators confined as narrowly: itself included, so it cannot lift its own limit.
 * Checked on the administrator before a change (what the caller may touch: its password, its keys)
 * and after it (what the caller makes). 403: the key lacks permission for this (spec §7).
 */
export function assertWithinCaller(caller: Principal, target: AdministratorPowers): void {
  for (const permission of target.permissions) {
    if (permission === 'limit_lists' || permission === 'limit_metadata') continue;
    const held =
      caller.permissions.has(permission) ||
      (caller.permissions.has('superadmin') && permission !== 'account');
    if (!held) throw forbidden(`permissions: this key cannot give ${permission}, which it does not have`);
  }
  confined(caller, target, 'limit_lists', caller.limitLists, target.limitLists, 'lists');
  confined(caller, target, 'limit_metadata', caller.limitMetadata, target.limitMetadata, 'custom fields');
}

function confined(
  caller: Principal,
  target: AdministratorPowers,
  permission: 'limit_lists' | 'limit_metadata',
  own: readonly string[],
  theirs: readonly string[],
  what: string,
): void {
  if (!caller.permissions.has(permission)) return;
  const allowed = new Set(own);
  if (!target.permissions.includes(permission) || !theirs.every((name) => allowed.has(name))) {
    throw forbidden(
      `${permission}: this key is limited to some ${what} (${permission}); an administrator it makes or changes must be limited to those ${what} or fewer`,
    );
  }
}

/**
 * SECURITY.md 32: a key that expires makes nothing that outlives it. A key it retrieves expires no
 * later than itself (sooner when `expiry_months` says so); it cannot set a password, which would
 * make a sign-in that never expires.
 */
export function keyExpiryWithinCaller(caller: Principal, requested: string | null): string | null {
  const limit = caller.keyExpiry ?? null;
  if (limit === null) return requested;
  return requested === null || requested > limit ? limit : requested;
}

export function assertMayGivePassword(caller: Principal): void {
  if (caller.keyExpiry != null) {
    throw forbidden('password: this key expires, so it cannot give a password (a sign-in that never expires)');
  }
}

/**
 * SECURITY.md 32: an account always keeps a superadmin (and the group its global one), so nobody
 * locks the account out of managing its administrators. Run after a change that took superadmin
 * from `before` (deleted, or its permissions replaced), in its transaction.
 */
export async function assertKeepsSuperadmin(
  db: Kysely<Database>,
  scope: number | null,
  before: AdministratorRow,
  after: AdministratorRow | null,
): Promise<void> {
  const had = powersOfRow(before).permissions.includes('superadmin');
  if (!had || (after !== null && powersOfRow(after).permissions.includes('superadmin'))) return;
  const rows = await selectAdministrators(db, scope);
  const remaining = rows.some((row) => powersOfRow(row).permissions.includes('superadmin'));
  if (!remaining) {
    throw badRequest(
      `permissions: ${scope === null ? 'the group' : 'an account'} must keep at least one superadmin; give superadmin to another administrator first`,
    );
  }
}
