import { conflict } from '../http/http-error.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';

/** A concurrent request took the same address or ccid between our check and our write. */
export function translateUniqueViolation(error: unknown): unknown {
  return isUniqueViolation(error)
    ? conflict('Another request took the same email address or ccid at the same time; try again')
    : error;
}
