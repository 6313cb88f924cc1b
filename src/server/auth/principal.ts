import type { Permission } from '../../api/constants.ts';

/** Who is calling: the administrator behind a key or access token, with what they may do. */
export interface Principal {
  administratorId: number;
  /** null for a global key of the group (spec §4.8). */
  accountId: number | null;
  permissions: ReadonlySet<Permission>;
  /** Spec §2.6: used when the limit_lists permission is set. */
  limitLists: readonly string[];
  /** Spec §2.6: used when the limit_metadata permission is set. */
  limitMetadata: readonly string[];
  /**
   * When the API key making the request expires (ISO 8601); absent or null for a key that never
   * does and for an access token. What the caller makes cannot outlive it (SECURITY.md 32).
   */
  keyExpiry?: string | null;
}

/** superadmin holds every permission within its own scope. */
export function can(principal: Principal, permission: Permission): boolean {
  return principal.permissions.has('superadmin') || principal.permissions.has(permission);
}

/** The lists a principal is confined to, or null when it sees every list of the account. */
export function listLimit(principal: Principal): ReadonlySet<string> | null {
  return principal.permissions.has('limit_lists') ? new Set(principal.limitLists) : null;
}

/** The custom fields a principal is confined to, or null when it sees every field. */
export function metadataLimit(principal: Principal): ReadonlySet<string> | null {
  return principal.permissions.has('limit_metadata') ? new Set(principal.limitMetadata) : null;
}

/** The names of the lists a principal is confined to, or null for all (spec §2.6 limit_lists). */
export function visibleListNames(principal: Principal): string[] | null {
  const limit = listLimit(principal);
  return limit && [...limit];
}
