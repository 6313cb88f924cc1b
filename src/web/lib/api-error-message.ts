import { ApiContractError, ApiError, RateLimitedError } from '../../api/errors.ts';
import { OPERATION_PERMISSIONS } from '../../api/operation-permissions.ts';
import type { OperationName } from '../../api/operations.ts';
import { mayCall, permissionsFor, type Powers } from './powers.ts';
import { formatResetTime } from './rate-limit.ts';

/**
 * The one place that turns an error from the API (or anything thrown while talking to it) into the
 * sentence the dashboard shows. Components render it through <ErrorMessage>; rate limits also
 * raise the banner (app/query-client.ts).
 */
export function describeError(error: unknown, powers?: Powers): string {
  return withoutSpecReferences(wordsFor(error, powers));
}

/**
 * A server's message without its references to the API specification ("(spec §4.5)", "spec §1"):
 * the people using the dashboard have not read it. The reference server writes none; another API
 * v2 server may.
 *
 * @example
 * withoutSpecReferences('A JSON body must be an object of fields (spec §1)') // '… of fields'
 */
export function withoutSpecReferences(message: string): string {
  return message
    .replace(/\s*\((?:see )?(?:the )?(?:spec(?:ification)? )?§\s?[\d.]+(?:[^()]{0,40})\)/gi, '')
    .replace(/,?\s*(?:see )?(?:the )?spec(?:ification)? §\s?[\d.]+(?: rule \d+)?/gi, '')
    .trim();
}

function wordsFor(error: unknown, powers: Powers | undefined): string {
  if (error instanceof RateLimitedError) {
    return `Not loaded: the hourly API allowance is used up until ${formatResetTime(error.resetAt)}.`;
  }
  if (error instanceof ApiContractError) {
    return `The server answered in a form this dashboard does not understand. ${error.message}`;
  }
  if (error instanceof ApiError) {
    switch (error.status) {
      case 0:
        return error.message;
      case 401:
        return 'The server refused the credentials (authentication failed). Sign in again.';
      case 403:
        return notPermitted(error, powers);
      case 404:
        return `Not found: ${error.message}`;
      default:
        if (error.status >= 500)
          return `The server failed to answer (${error.status}). Try again later.`;
        return error.message;
    }
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/**
 * A 403 says which permission is missing: the server's message when it names one (the reference
 * server's does), else the permissions the contract gives the operation, unless the principal
 * holds them (`powers`): then the refusal has another cause (a limit_lists contact also on other
 * lists, spec §2.6), which the server's message is left to say.
 */
function notPermitted(error: ApiError, powers: Powers | undefined): string {
  const text = `Not permitted: ${error.message}`;
  if (/permission|scope/i.test(error.message) || error.operation === undefined) return text;
  if (!(error.operation in OPERATION_PERMISSIONS)) return text;
  if (powers?.known && mayCall(powers, error.operation as OperationName)) return text;
  const needed = permissionsFor(error.operation as OperationName);
  return `${text.replace(/\.?$/, '.')} This needs the ${needed} permission; an administrator with superadmin can give it.`;
}

/**
 * An answer that trying again cannot change: the request is refused (400), the permission is
 * missing (403) or what it names is not there, or not for this principal (404).
 */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && [400, 403, 404].includes(error.status);
}
