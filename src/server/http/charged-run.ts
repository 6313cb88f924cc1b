import { chargeOrThrow, countObjects, refund, type Payer } from '../rate-limit/charge.ts';
import type { RateCharge } from '../rate-limit/rate-limiter.ts';
import type { AppDeps } from './app-deps.ts';
import type { OperationPolicy } from './operation-policy.ts';

/**
 * SECURITY.md 30: the cost is checked before the work, so nothing runs with no allowance left (a
 * search that found nothing was charged 0 and ran with the allowance spent: issue 16 finding 1).
 * Every request takes one object first (a write: the object it affects; a read: the query, which
 * counts at least as one even when it finds nothing); a read then takes what else it returns (spec
 * §8 rule 1). The reserved object is given back when the work fails, unless the operation's
 * `whenWorkFails` keeps it (http/operation-policy.ts).
 */
export async function runCharged<T>(
  deps: AppDeps,
  payer: Payer,
  policy: OperationPolicy,
  isWrite: boolean,
  work: () => Promise<T>,
): Promise<{ result: T; charge: RateCharge }> {
  const reserved = chargeOrThrow(deps, payer, 1);
  let charge = reserved instanceof Promise ? await reserved : reserved;
  let result: T;
  try {
    result = await work();
  } catch (error) {
    // Not given back for a fetch from elsewhere: a failed fetch cost the remote host as much.
    if (policy.whenWorkFails === 'refund') await refund(deps, payer, charge, 1);
    throw error;
  }
  if (!isWrite) {
    // Over the allowance here is a 429 that keeps the reserved object: the work was done.
    const rest = countObjects(result, policy.chargesMemberIds) - 1;
    if (rest > 0) {
      const taken = chargeOrThrow(deps, payer, rest);
      charge = taken instanceof Promise ? await taken : taken;
    }
  }
  return { result, charge };
}
