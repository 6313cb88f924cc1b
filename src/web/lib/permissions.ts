import type { OperationName } from '../../api/operations.ts';
import { useCallerInfo } from './caller-queries.ts';
import { mayCall, powersOf, type Powers } from './powers.ts';
import { useSession } from './session.ts';

/**
 * The one hook every feature asks before it shows a page or an action (the rules: lib/powers.ts).
 * `may('contacts.create')` is true when the principal may call the operation, or when the server
 * does not say who is calling.
 */
/** The signed-in principal's powers; unknown while the caller is read and on other servers. */
export function usePermissions(): Powers & { may: (operation: OperationName) => boolean } {
  const session = useSession();
  const global = session.status === 'signed-in' && session.principal.global;
  const powers = powersOf(useCallerInfo(), global);
  return { ...powers, may: (operation) => mayCall(powers, operation) };
}
