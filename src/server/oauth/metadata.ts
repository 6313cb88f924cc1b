import { DASHBOARD_CLIENT_ID } from './clients.service.ts';
import { OAUTH_PAGE_PATHS } from './paths.ts';
import { SCOPES } from './scopes.ts';

/**
 * The issuer identifier (RFC 8414 §2), from configuration only (SECURITY.md 34): PUBLIC_URL's
 * origin when set (production behind a proxy), otherwise `http://HOST:PORT`. Never the request's
 * Host header: a forged Host would name another issuer in the metadata (cached publicly) and in the
 * `iss` of every redirect. `listeningPort` is the port actually bound, for PORT=0.
 */
export function issuerOf(
  config: { publicUrl: string | undefined; host: string; port: number },
  listeningPort?: number,
): string {
  if (config.publicUrl) return new URL(config.publicUrl).origin;
  return `http://${urlHost(config.host)}:${listeningPort ?? config.port}`;
}

/** The host part of a URL to this server: a wildcard bind is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
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
