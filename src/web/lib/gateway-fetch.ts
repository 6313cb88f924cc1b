import { GATEWAY_REQUEST_HEADER } from '../../api/gateway.ts';

/**
 * Every request to a gateway (`listkeeper dashboard`): the session cookie is the credential, on
 * this origin only, and the header another site's page cannot send comes along (SECURITY.md 27).
 */
export const fetchThroughGateway: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set(GATEWAY_REQUEST_HEADER, '1');
  return fetch(input, { ...init, headers, credentials: 'same-origin' });
};
