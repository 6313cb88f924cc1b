import { can, type Principal } from '../auth/principal.ts';
import type { RouteRule } from '../auth/route-permissions.ts';
import type { Scope } from '../oauth/scopes.ts';
import { forbidden } from './http-error.ts';

/**
 * Spec §2.6: the key holds one of the operation's permissions (`rule`: `anyOf` and `global` of its
 * entry in src/api/operations.ts); spec §5.2: an access token was also granted the operation's
 * scope (`scope` in http/operation-policy.ts). Both are looked up once, when the route is
 * registered. 403 names what is missing.
 */
export function assertAllowed(
  principal: Principal,
  scopes: ReadonlySet<string> | null | undefined,
  rule: RouteRule,
  scope: Scope | null,
): void {
  if (!rule.anyOf.some((permission) => can(principal, permission))) {
    throw forbidden(`This key lacks the ${rule.anyOf.join(' or ')} permission`);
  }
  if (scopes && scope !== null && !scopes.has(scope)) {
    throw forbidden(`This access token was not granted the ${scope} scope`);
  }
}
