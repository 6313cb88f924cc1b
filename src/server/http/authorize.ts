import type { OperationName } from '../../api/operations.ts';
import { can, type Principal } from '../auth/principal.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { ROUTE_SCOPES } from '../auth/route-scopes.ts';
import { forbidden } from './http-error.ts';

/**
 * Spec §2.6: the key holds one of the operation's permissions; spec §5.2: an access token was also
 * granted the operation's scope (auth/route-scopes.ts). 403 names what is missing.
 */
export function assertAllowed(
  principal: Principal,
  scopes: ReadonlySet<string> | null | undefined,
  name: OperationName,
): void {
  const rule = ROUTE_PERMISSIONS[name];
  if (!rule.anyOf.some((permission) => can(principal, permission))) {
    throw forbidden(`This key lacks the ${rule.anyOf.join(' or ')} permission`);
  }
  const scope = ROUTE_SCOPES[name];
  if (scopes && scope !== null && !scopes.has(scope)) {
    throw forbidden(`This access token was not granted the ${scope} scope`);
  }
}
