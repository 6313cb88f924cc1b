import { GATEWAY_REQUEST_HEADER } from '../api/gateway.ts';

/** The value of GATEWAY_REQUEST_HEADER the dashboard sends. */
export const GATEWAY_REQUEST_VALUE = '1';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RequestOrigin {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  customHeader: string | undefined;
}

/**
 * SECURITY.md 27: why the gateway refuses a request made with the session cookie, or null.
 * Every request needs the dashboard's header; whatever the browser says of where it comes from
 * (`Sec-Fetch-Site`, `Origin`) must be this origin; a state-changing request must say it.
 */
export function csrfProblem(request: RequestOrigin, publicOrigin: string): string | null {
  if (request.customHeader !== GATEWAY_REQUEST_VALUE)
    return `The request lacks the dashboard's ${GATEWAY_REQUEST_HEADER} header`;
  if (request.secFetchSite !== undefined && request.secFetchSite !== 'same-origin')
    return 'The request comes from another site';
  if (request.origin !== undefined && request.origin !== publicOrigin)
    return 'The request comes from another origin';
  if (!SAFE_METHODS.has(request.method.toUpperCase()) && request.origin === undefined && request.secFetchSite === undefined)
    return 'The request does not say where it comes from';
  return null;
}
