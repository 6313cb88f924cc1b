import * as oauth from 'oauth4webapi';
import { API_PREFIX, OAUTH_PATHS } from '../api/constants.ts';
import { GATEWAY_PATHS } from '../api/gateway.ts';
import type { GatewayConfig } from './config.ts';
import { RefreshRefusedError } from './refresh.ts';
import type { Credential, OAuthTokens, Principal } from './session-store.ts';


/** The upstream did not answer, or not in time: the dashboard gets 502 or 504. */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError';
  readonly status: 502 | 504;
  constructor(status: 502 | 504, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }
}

/** The sign-in failed for a reason the person should hear; `consentDenied` when they declined. */
export class SignInError extends Error {
  override name = 'SignInError';
  readonly consentDenied: boolean;
  constructor(message: string, consentDenied = false) {
    super(message);
    this.consentDenied = consentDenied;
  }
}

/** The upstream refused the API key or token (401, spec §5.1 rule 6). */
export class CredentialRefusedError extends Error {
  override name = 'CredentialRefusedError';
}

/** `Authorization` for a stored credential: spec §5.1 and §5.2, both Bearer. */
export function authorizationOf(credential: Credential): string {
  return `Bearer ${credential.method === 'key' ? credential.key : credential.tokens.accessToken}`;
}

/**
 * The gateway's side of the upstream: the OAuth 2.0 confidential client of spec §4.9 and §5.2
 * (oauth4webapi: client secret at the token endpoint, PKCE S256, single-use `state`, RFC 9207
 * `iss`), and the one cheap API call that checks a credential and tells whether it is global.
 */
export function createUpstream(
  config: GatewayConfig,
  fetcher: typeof fetch = fetch,
  /** The gateway's time, from which a token's expiry is reckoned (tests set it). */
  now: () => number = Date.now,
) {
  const timeout = () => AbortSignal.timeout(config.upstreamTimeoutMs);
  const httpOptions = {
    signal: timeout,
    [oauth.customFetch]: fetcher,
    // http only to a loopback upstream (config.ts refuses any other): development and tests.
    ...(config.upstreamUrl.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {}),
  };
  const endpoint = (path: string) => `${config.upstreamUrl}${path}`;
  const redirectUri = `${config.publicUrl}${GATEWAY_PATHS.callback}`;

  /** Spec §4.9 fixes the endpoints; RFC 8414 metadata, when the upstream has it, names the issuer. */
  let discovered: Promise<oauth.AuthorizationServer> | null = null;
  function authorizationServer(): Promise<oauth.AuthorizationServer> {
    discovered ??= discover().catch(() => {
      discovered = null;
      return { issuer: config.upstreamUrl };
    });
    return discovered.then((metadata) => ({
      issuer: metadata.issuer,
      authorization_response_iss_parameter_supported:
        metadata.authorization_response_iss_parameter_supported,
      authorization_endpoint: endpoint(OAUTH_PATHS.authorize),
      token_endpoint: endpoint(OAUTH_PATHS.token),
    }));
  }
  async function discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(config.upstreamUrl);
    // No answer: thrown, so the next sign-in asks again.
    const response = await oauth.discoveryRequest(issuer, { ...httpOptions, algorithm: 'oauth2' });
    try {
      return await oauth.processDiscoveryResponse(issuer, response);
    } catch {
      // An answer without metadata (spec v2 promises none): kept, not asked again at every refresh.
      return { issuer: config.upstreamUrl };
    }
  }

  function client(): { client: oauth.Client; auth: oauth.ClientAuth } {
    if (!config.oauthClient) throw new SignInError('OAuth sign-in is not configured on this dashboard.');
    return {
      client: { client_id: config.oauthClient.clientId },
      // RFC 6749 §2.3.1: every server supports HTTP Basic for client authentication.
      auth: oauth.ClientSecretBasic(config.oauthClient.clientSecret),
    };
  }

  function tokensOf(response: oauth.TokenEndpointResponse, previous: OAuthTokens | null): OAuthTokens {
    const issuedAt = now();
    return {
      accessToken: response.access_token,
      // A server that does not rotate refresh tokens keeps the one it gave before (RFC 6749 §6).
      refreshToken: response.refresh_token ?? previous?.refreshToken ?? null,
      issuedAt,
      expiresAt: typeof response.expires_in === 'number' ? issuedAt + response.expires_in * 1000 : null,
    };
  }

  return {
    oauthOffered: config.oauthClient !== null,
    redirectUri,

    /** Where to send the browser: the upstream's authorization endpoint with a fresh PKCE challenge. */
    async authorizationUrl(state: string, codeVerifier: string): Promise<string> {
      const { client: c } = client();
      const url = new URL(endpoint(OAUTH_PATHS.authorize));
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', c.client_id);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return url.href;
    },

    /** Checks the callback (`state`, `iss`, error) and redeems its code, with the secret and the verifier. */
    async exchangeCode(
      callback: URLSearchParams,
      expectedState: string,
      codeVerifier: string,
    ): Promise<{ tokens: OAuthTokens; username: string | null }> {
      const { client: c, auth } = client();
      const as = await authorizationServer();
      let parameters: URLSearchParams;
      try {
        parameters = oauth.validateAuthResponse(as, c, callback, expectedState);
      } catch (error) {
        if (error instanceof oauth.AuthorizationResponseError) {
          if (error.error === 'access_denied') throw new SignInError('Access was not granted.', true);
          throw new SignInError(`The server did not sign you in: ${error.error_description ?? error.error}.`);
        }
        // A wrong `iss` (RFC 9207: a mix-up) or a malformed response.
        throw new SignInError('The sign-in response did not come from the expected server.');
      }
      let result: oauth.TokenEndpointResponse;
      try {
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          c,
          auth,
          parameters,
          redirectUri,
          codeVerifier,
          httpOptions,
        );
        result = await oauth.processAuthorizationCodeResponse(as, c, response);
      } catch (error) {
        if (error instanceof oauth.ResponseBodyError)
          throw new SignInError(`The server refused the sign-in: ${error.error_description ?? error.error}.`);
        throw unavailable(error);
      }
      return {
        tokens: tokensOf(result, null),
        username: typeof result.username === 'string' ? result.username : null,
      };
    },

    /** Spec §5.2 rule 5 at spec §4.9's refresh endpoint; a refusal ends the session. */
    async refresh(tokens: OAuthTokens): Promise<OAuthTokens> {
      if (tokens.refreshToken === null) throw new RefreshRefusedError('No refresh token');
      const { client: c, auth } = client();
      const as = { ...(await authorizationServer()), token_endpoint: endpoint(OAUTH_PATHS.refresh) };
      try {
        const response = await oauth.refreshTokenGrantRequest(as, c, auth, tokens.refreshToken, httpOptions);
        return tokensOf(await oauth.processRefreshTokenResponse(as, c, response), tokens);
      } catch (error) {
        if (error instanceof oauth.ResponseBodyError || error instanceof oauth.WWWAuthenticateChallengeError)
          throw new RefreshRefusedError(error.message, { cause: error });
        throw unavailable(error);
      }
    },

    /**
     * Checks a credential with the one request every principal can make and that counts against
     * no account's allowance: GET /accounts/ (spec §4.7). 200: global (spec §4.8); 403 (an account
     * key) or 404 (a server without groups): one account; 401: refused.
     */
    async probe(credential: Credential, username: string | null = null): Promise<Principal> {
      let response: Response;
      try {
        response = await fetcher(endpoint(`${API_PREFIX}/accounts/`), {
          headers: { accept: 'application/json', authorization: authorizationOf(credential) },
          signal: timeout(),
          redirect: 'manual',
        });
        await response.body?.cancel();
      } catch (error) {
        throw unavailable(error);
      }
      if (response.status === 401) throw new CredentialRefusedError('Authentication failed');
      if (response.status === 200 || response.status === 403 || response.status === 404)
        return { method: credential.method, global: response.status === 200, username };
      throw new UpstreamUnavailableError(502, `The API server answered ${response.status} to a sign-in check.`);
    },

    /**
     * Asks the upstream to end its own login session and the grant, with the access token: the
     * reference server's logout (an extension; spec v2 has no such call, nor RFC 7009 revocation).
     * Answers the upstream's status (401: the token was refused; 404: no such call), or null when
     * it did not answer.
     */
    async logout(credential: Credential): Promise<number | null> {
      if (credential.method !== 'oauth') return null;
      try {
        const response = await fetcher(endpoint(`${API_PREFIX}/oauth/logout/`), {
          method: 'POST',
          headers: { authorization: authorizationOf(credential) },
          signal: AbortSignal.timeout(Math.min(5_000, config.upstreamTimeoutMs)),
          redirect: 'manual',
        });
        await response.body?.cancel();
        return response.status;
      } catch {
        return null;
      }
    },
  };
}

export type Upstream = ReturnType<typeof createUpstream>;

/** A failed request to the upstream, as the dashboard should hear it. */
export function unavailable(error: unknown): UpstreamUnavailableError {
  if (error instanceof UpstreamUnavailableError) return error;
  const timedOut =
    error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
  return timedOut
    ? new UpstreamUnavailableError(504, 'The API server did not answer in time.', { cause: error })
    : new UpstreamUnavailableError(502, 'The API server cannot be reached.', { cause: error });
}
