import type { GatewayConfig } from './config.ts';
import { createRefresher, type Refresher } from './refresh.ts';
import type { SessionStore } from './session-store.ts';
import { createUpstream, type Upstream } from './upstream.ts';

/**
 * What every room of the gateway's app shares (routes/, hooks.ts), built once by app.ts and handed
 * down explicitly: the settings, the sessions, the upstream and the gateway's time.
 */
export interface GatewayContext {
  config: GatewayConfig;
  store: SessionStore;
  upstream: Upstream;
  refresher: Refresher;
  /** The network to the upstream (tests observe or replace it). */
  fetch: typeof fetch;
  now: () => number;
  cookies: GatewayCookies;
}

export interface GatewayCookies {
  session: string;
  /** Binds an OAuth sign-in to the browser that started it (SECURITY.md 28). */
  login: string;
  options: { path: '/'; httpOnly: true; sameSite: 'lax'; secure: boolean };
}

export function createGatewayContext(
  config: GatewayConfig,
  store: SessionStore,
  fetcher: typeof fetch,
  now: () => number,
): GatewayContext {
  const upstream = createUpstream(config, fetcher, now);
  const refresher = createRefresher({
    store,
    refresh: (tokens) => upstream.refresh(tokens),
    now,
    leaseMs: config.upstreamTimeoutMs + 5_000,
  });
  const secure = isSecure(config);
  // `__Host-`: only this origin may set it, on every path, and only over https (RFC 6265bis).
  const cookies: GatewayCookies = {
    session: secure ? '__Host-listkeeper-session' : 'listkeeper-session',
    login: secure ? '__Host-listkeeper-login' : 'listkeeper-login',
    options: { path: '/', httpOnly: true, sameSite: 'lax', secure },
  };
  return { config, store, upstream, refresher, fetch: fetcher, now, cookies };
}

/** Served over https: `__Host-` cookies and HSTS. */
export function isSecure(config: GatewayConfig): boolean {
  return config.publicUrl.startsWith('https:');
}
