import { userRegexProblem } from '../../api/user-regex.ts';
import { badRequest } from '../http/http-error.ts';

/**
 * SECURITY.md 31: a regular expression is refused when it is saved if the server's linear-time
 * engine cannot run it (api/user-regex.ts), with the reason on its field: `taboo_body.1: uses a
 * backreference…`, the path form of the contract's own errors, which the dashboard's forms map to
 * the field. The contract already refused what `RegExp` cannot parse.
 */
export function assertRunnablePatterns<F extends string>(
  input: Partial<Record<F, readonly string[] | null | undefined>>,
  fields: readonly F[],
): void {
  for (const field of fields) {
    input[field]?.forEach((source, index) => {
      const problem = userRegexProblem(source);
      if (problem !== null) throw badRequest(`${field}.${index}: ${problem}`);
    });
  }
}
