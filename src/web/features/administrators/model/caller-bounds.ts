import type { Permission } from '../../../../api/constants.ts';
import type { Powers } from '../../../lib/powers.ts';

/** What an administrator entry may do (spec §2.6), as far as `mayManageAdministrator` compares. */
export interface AdministratorReach {
  /** As read: a permission a newer server adds (spec §2.6) is compared like any other. */
  permissions: readonly string[];
  limit_lists: readonly string[];
  limit_metadata: readonly string[];
}

/**
 * SECURITY.md 32, as the reference server applies it to a change, a key retrieval or a deletion:
 * a principal reaches only an administrator with no permission it lacks itself (superadmin holds
 * each one of its account but `account`), and, while confined to lists or custom fields, only one
 * confined to those or fewer. The others are not offered those actions.
 */
export function mayManageAdministrator(powers: Powers, target: AdministratorReach): boolean {
  if (!powers.known) return true;
  const superadmin = powers.permissions.has('superadmin');
  const own: ReadonlySet<string> = powers.permissions;
  const held = (permission: string) =>
    LIMITS.has(permission) || own.has(permission) || (superadmin && permission !== 'account');
  return (
    target.permissions.every(held) &&
    confinedWithin(powers.limitLists, target, 'limit_lists', target.limit_lists) &&
    confinedWithin(powers.limitMetadata, target, 'limit_metadata', target.limit_metadata)
  );
}

/** The permissions that confine rather than grant (spec §2.6): anyone may give them; a preset keeps them. */
export const LIMITS: ReadonlySet<string> = new Set(['limit_lists', 'limit_metadata']);

function confinedWithin(
  own: readonly string[] | null,
  target: AdministratorReach,
  permission: 'limit_lists' | 'limit_metadata',
  theirs: readonly string[],
): boolean {
  return (
    own === null ||
    (target.permissions.includes(permission) && theirs.every((n) => own.includes(n)))
  );
}

/**
 * The limits an administrator made by a confined principal must keep (SECURITY.md 32): its own
 * limit permissions, and its lists and custom fields to choose from. Empty for an unconfined one.
 */
export function limitsToKeep(powers: Powers): {
  permissions: Permission[];
  lists: readonly string[] | null;
  fields: readonly string[] | null;
} {
  if (!powers.known) return { permissions: [], lists: null, fields: null };
  return {
    permissions: [
      ...(powers.limitLists === null ? [] : (['limit_lists'] as const)),
      ...(powers.limitMetadata === null ? [] : (['limit_metadata'] as const)),
    ],
    lists: powers.limitLists,
    fields: powers.limitMetadata,
  };
}
