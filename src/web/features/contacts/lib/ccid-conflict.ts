import { ApiError } from '../../../../api/errors.ts';

/** Spec §4.1 rule 2 and §7: a create whose ccid is taken answers 409. */
export function isCcidConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}
