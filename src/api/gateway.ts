/**
 * The contract between the dashboard and its gateway (`listkeeper dashboard`, src/gateway): not
 * API v2, but the few endpoints beside it on the dashboard's own origin, stated once for both.
 */
export const GATEWAY_PATHS = {
  /** `{mode: 'gateway', api_base_url: '', oauth, upstream_name}` */
  config: '/config.json',
  /** Full-page navigation: starts the OAuth sign-in (`?next=` the path to resume at). */
  login: '/auth/login',
  /** The OAuth redirect URI: `${PUBLIC_URL}/auth/callback`. */
  callback: '/auth/callback',
  /** POST `{key}`: signs in with an API key (spec §5.1), kept by the gateway only. */
  key: '/auth/key',
  /** GET: who is signed in (GatewaySession). */
  session: '/auth/session',
  /** POST: ends the session, for every tab and every gateway process. */
  logout: '/auth/logout',
  /**
   * GET `?message=<id>&url=<address>[&account_id=<id>]`: one remote image of that message as
   * `{url, data_url}` (the MessageImage schema), fetched by the gateway, so "show images" works
   * against any API v2 server. Only an address the message (read from the upstream) refers to.
   */
  messageImage: '/gateway/message-image',
} as const;

/**
 * The header the dashboard sends with every request to its gateway (SECURITY.md 27): another
 * site's page cannot send it without a CORS preflight, which the gateway never approves.
 */
export const GATEWAY_REQUEST_HEADER = 'x-listkeeper-request';

/** What `GET /auth/session` answers: from the upstream's own answers, never a credential. */
export type GatewaySession =
  | { signed_in: false }
  | {
      signed_in: true;
      method: 'key' | 'oauth';
      /** A global key or token (spec §4.8): GET /accounts/ answered 200. */
      global: boolean;
      /** When the upstream's token response names the user (the spec does not promise it). */
      username: string | null;
      upstream_name: string;
      expires_at: string;
    };
