import { DASHBOARD_CLIENT_ID } from './clients.service.ts';
import { OAUTH_PAGE_PATHS } from './paths.ts';
import { SCOPES } from './scopes.ts';

/**
 * The issuer identifier (RFC 8414 §2): PUBLIC_URL's origin when set (production behind a proxy),
 * otherwise the origin the request was made to.
 */
export function issuerOf(publicUrl: string | undefined, request: { protocol: string; host: string }): string {
  return publicUrl ? new URL(publicUrl).origin : `${request.protocol}://${request.host}`;
}

/** RFC 8414 authorization server metadata (SECURITY.md 8). */
export function authorizationServerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PAGE_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PAGE_PATHS.token}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...SCOPES],
    // RFC 9207: the callback carries `iss`, so a client talking to several servers cannot be mixed up.
    authorization_response_iss_parameter_supported: true,
  };
}

/** What the dashboard reads at start-up (issue #4): where the API is and which client it is. */
export function dashboardConfig(issuer: string): Record<string, unknown> {
  return {
    api_base_url: '',
    client_id: DASHBOARD_CLIENT_ID,
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PAGE_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PAGE_PATHS.token}`,
  };
}
