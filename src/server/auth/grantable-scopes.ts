import type { OperationName } from '../../api/operations.ts';
import { OPERATION_POLICY } from '../http/operation-policy.ts';
import { SCOPES, type Scope } from '../oauth/scopes.ts';
import { can, type Principal } from './principal.ts';
import { ROUTE_PERMISSIONS } from './route-permissions.ts';

/**
 * The scopes an administrator can grant (spec §5.2): those with at least one operation
 * (`scope` in http/operation-policy.ts) the administrator's permissions allow (a group-wide
 * operation also needs a global administrator, spec §4.8, but where an account's own principal
 * reaches its own account).
 */
export function grantableScopes(principal: Principal): Set<Scope> {
  const grantable = new Set<Scope>();
  for (const name of Object.keys(OPERATION_POLICY) as OperationName[]) {
    const scope = OPERATION_POLICY[name].scope;
    if (scope === null) continue;
    const rule = ROUTE_PERMISSIONS[name];
    // An account's own principal: a group-wide operation only where it reaches its own account
    // (operations.ts OWN_ACCOUNT: `accounts:read` and `accounts:write` then mean that account's;
    // with EXTENSIONS=off they are granted and reach nothing, as the route refuses account keys).
    const anyOf = rule.global && principal.accountId !== null ? (rule.ownAccount ?? []) : rule.anyOf;
    if (anyOf.some((permission) => can(principal, permission))) grantable.add(scope);
  }
  return new Set(SCOPES.filter((scope) => grantable.has(scope)));
}
