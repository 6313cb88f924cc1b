import { OAUTH_PATHS } from '../../api/constants.ts';

/**
 * The dashboard's run-time configuration, served by the API server as `/config.json` (issue #5), so
 * one build works against any API v2 server. Read once, before the first route renders.
 */
export interface OAuthConfig {
  clientId: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Spec §4.9's refresh endpoint: `refresh_endpoint`, else `{base}/api/2/oauth/refresh/`. */
  refreshEndpoint: string;
  /** Ends the server's login session on sign-out: `logout_endpoint`, else the reference server's path. */
  logoutEndpoint: string;
  /** The issuer an authorization response's `iss` must equal (RFC 9207). */
  issuer: string;
}

/**
 * Served by a gateway (`listkeeper dashboard`): it signs in, keeps every credential and adds it to
 * the API requests itself; the page sends none (SECURITY.md 10).
 */
export interface GatewayModeConfig {
  /** Whether the gateway has an OAuth client id and secret for its upstream. */
  oauth: boolean;
  /** The API server the gateway stands in front of, as the page names it. */
  upstreamName: string;
}

export interface AppConfig {
  /** Origin (and optional path) of the API; '' is this page's origin. */
  apiBaseUrl: string;
  /** null when the server offers no OAuth sign-in of the page's own; `problem` then says why. */
  oauth: OAuthConfig | null;
  problem: string | null;
  /** Present when a gateway serves the page (its `/config.json` says `mode: "gateway"`). */
  gateway?: GatewayModeConfig;
}

/** Reference-server extension beside spec §4.9's endpoints. */
const LOGOUT_PATH = '/api/2/oauth/logout/';

let loaded: Promise<AppConfig> | null = null;
let current: AppConfig | null = null;

/** Fetches `/config.json` once; never rejects: a missing or broken file leaves key sign-in working. */
export function loadConfig(fetcher: typeof fetch = fetch): Promise<AppConfig> {
  loaded ??= fetchConfig(fetcher).then((config) => (current = config));
  return loaded;
}

/** The configuration, once `loadConfig` has settled (the router awaits it before any route). */
export function getConfig(): AppConfig {
  if (!current) throw new Error('getConfig() before loadConfig() settled');
  return current;
}

async function fetchConfig(fetcher: typeof fetch): Promise<AppConfig> {
  let body: unknown;
  try {
    const response = await fetcher('/config.json', { headers: { accept: 'application/json' } });
    if (!response.ok)
      return withoutOAuth(`the server answered ${response.status} for /config.json`);
    body = await response.json();
  } catch {
    return withoutOAuth('the server does not publish a readable /config.json');
  }
  return parseConfig(body, globalThis.location?.origin ?? 'http://localhost');
}

function withoutOAuth(why: string): AppConfig {
  return { apiBaseUrl: '', oauth: null, problem: `OAuth sign-in is unavailable: ${why}.` };
}

/**
 * A gateway's `{mode: "gateway", oauth, upstream_name}`, or the reference server's
 * `{api_base_url, client_id, authorization_endpoint, token_endpoint}`, plus the optional
 * `refresh_endpoint`, `logout_endpoint` and `issuer`. Endpoints are URLs resolved against the API
 * base. Checked by hand: zod stays out of the entry chunk.
 */
export function parseConfig(body: unknown, pageOrigin: string): AppConfig {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return withoutOAuth('/config.json is not a JSON object');
  }
  const record = body as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' ? record[key] : null);
  if (record.mode === 'gateway') {
    return {
      apiBaseUrl: '',
      oauth: null,
      problem: null,
      gateway: { oauth: record.oauth === true, upstreamName: text('upstream_name') ?? 'the API server' },
    };
  }
  const apiBaseUrl = (text('api_base_url') ?? '').replace(/\/+$/, '');
  const clientId = text('client_id');
  const authorization = text('authorization_endpoint');
  const token = text('token_endpoint');
  if (!clientId || !authorization || !token) {
    return {
      apiBaseUrl,
      oauth: null,
      problem:
        'OAuth sign-in is unavailable: /config.json names no client_id, authorization_endpoint and token_endpoint.',
    };
  }
  const base = new URL(`${apiBaseUrl || pageOrigin}/`, pageOrigin);
  const resolve = (value: string | null, fallback: string) =>
    new URL(value ?? fallback.slice(1), base).href;
  const authorizationEndpoint = new URL(authorization, base).href;
  return {
    apiBaseUrl,
    oauth: {
      clientId,
      authorizationEndpoint,
      tokenEndpoint: new URL(token, base).href,
      refreshEndpoint: resolve(text('refresh_endpoint'), OAUTH_PATHS.refresh),
      logoutEndpoint: resolve(text('logout_endpoint'), LOGOUT_PATH),
      issuer: text('issuer') ?? new URL(authorizationEndpoint).origin,
    },
    problem: null,
  };
}
