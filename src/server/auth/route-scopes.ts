import type { OperationName } from '../../api/operations.ts';
import { SCOPES, type Scope } from '../oauth/scopes.ts';
import { can, type Principal } from './principal.ts';
import { ROUTE_PERMISSIONS } from './route-permissions.ts';

/**
 * The OAuth scope each operation needs when it is called with an access token (spec §5.2 rule 3).
 * An API key has no scopes and is bound by its permissions only (ROUTE_PERMISSIONS); a token needs
 * both the scope and its administrator's permission. Every operation is listed (deny by default);
 * null only for what concerns the token itself.
 */
export const ROUTE_SCOPES: Record<OperationName, Scope | null> = {
  'contacts.get': 'contacts:read',
  'contacts.list': 'contacts:read',
  'contacts.create': 'contacts:write',
  'contacts.update': 'contacts:write',
  'contacts.delete': 'contacts:write',

  'emails.get': 'contacts:read',
  'emails.create': 'contacts:write',
  'emails.update': 'contacts:write',
  'emails.delete': 'contacts:write',

  'membership.get': 'contacts:read',
  'membership.create': 'contacts:write',
  'membership.update': 'contacts:write',
  'membership.delete': 'contacts:write',

  'lists.list': 'lists:read',
  'lists.get': 'lists:read',
  'lists.create': 'lists:write',
  'lists.update': 'lists:write',
  'lists.delete': 'lists:write',

  'messages.list': 'messages:read',
  'messages.get': 'messages:read',
  'messages.send': 'messages:write',
  'messages.delete': 'messages:write',
  'messages.image': 'messages:read',

  'held.list': 'messages:read',
  'held.get': 'messages:read',
  'held.approve': 'messages:write',
  'held.reject': 'messages:write',
  'held.discard': 'messages:write',
  'held.bulk': 'messages:write',

  'users.list': 'users:read',
  'users.get': 'users:read',
  'users.create': 'users:write',
  'users.update': 'users:write',
  'users.retrieveKey': 'users:write',
  'users.delete': 'users:write',

  'accounts.list': 'accounts:read',
  'accounts.get': 'accounts:read',
  'accounts.create': 'accounts:write',
  'accounts.update': 'accounts:write',
  'accounts.delete': 'accounts:write',

  // null: about the token itself, so every token reads it (the dashboard asks who signed in).
  'caller.get': null,
};

/**
 * The scopes an administrator can grant: those with at least one operation the administrator's
 * permissions allow (a group-wide operation also needs a global administrator, spec §4.8).
 */
export function grantableScopes(principal: Principal): Set<Scope> {
  const grantable = new Set<Scope>();
  for (const [name, scope] of Object.entries(ROUTE_SCOPES) as [OperationName, Scope | null][]) {
    if (scope === null) continue;
    const rule = ROUTE_PERMISSIONS[name];
    if (rule.global && principal.accountId !== null) continue;
    if (rule.anyOf.some((permission) => can(principal, permission))) grantable.add(scope);
  }
  return new Set(SCOPES.filter((scope) => grantable.has(scope)));
}
