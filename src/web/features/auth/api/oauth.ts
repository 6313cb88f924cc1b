import * as oauth from 'oauth4webapi';
import { getConfig, type OAuthConfig } from '../../../lib/config.ts';
import { savePendingAuthorization, takePendingAuthorization } from '../../../lib/tab-storage.ts';
import { RefreshRefusedError, type TokenSet } from '../../../lib/token-keeper.ts';

/**
 * The OAuth 2.0 client side of spec §5.2, as a public client with PKCE (S256) and a single-use
 * `state` kept in the tab's sessionStorage (SECURITY.md 9). oauth4webapi validates the responses.
 */
export const CALLBACK_PATH = '/auth/callback';

/** The user declined at the consent step (`error=access_denied`). */
export class ConsentDeniedError extends Error {
  override name = 'ConsentDeniedError';
}

/** Sign-in could not complete; the message says why, for the person signing in. */
export class OAuthSignInError extends Error {
  override name = 'OAuthSignInError';
}

function oauthConfig(): OAuthConfig {
  const config = getConfig();
  if (!config.oauth)
    throw new OAuthSignInError(config.problem ?? 'OAuth sign-in is not configured.');
  return config.oauth;
}

function authorizationServer(
  config: OAuthConfig,
  tokenEndpoint = config.tokenEndpoint,
): oauth.AuthorizationServer {
  return {
    issuer: config.issuer,
    authorization_endpoint: config.authorizationEndpoint,
    token_endpoint: tokenEndpoint,
  };
}

/** oauth4webapi insists on HTTPS; plain HTTP is allowed to a loopback server only (development, tests). */
function transportOptions(endpoint: string) {
  const url = new URL(endpoint);
  const loopback =
    url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  return url.protocol === 'http:' && loopback ? { [oauth.allowInsecureRequests]: true } : {};
}

function redirectUri(): string {
  return new URL(CALLBACK_PATH, window.location.origin).href;
}

function tokenSet(
  response: oauth.TokenEndpointResponse,
  previous: TokenSet | null,
  now = Date.now(),
): TokenSet {
  return {
    accessToken: response.access_token,
    // A server that does not rotate refresh tokens keeps the one it gave before (RFC 6749 §6).
    refreshToken: response.refresh_token ?? previous?.refreshToken ?? null,
    issuedAt: now,
    expiresAt: typeof response.expires_in === 'number' ? now + response.expires_in * 1000 : null,
  };
}

/** Sends the browser to the authorization endpoint; `returnTo` is where the app resumes. */
export async function startAuthorization(returnTo: string): Promise<never> {
  const config = oauthConfig();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(config.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  savePendingAuthorization({ state, codeVerifier, returnTo });
  window.location.assign(url);
  // The page is leaving; nothing after this should render.
  return new Promise<never>(() => undefined);
}

export interface CompletedAuthorization {
  tokens: TokenSet;
  /** Shown as the signed-in identity when the token response names the user (not in the spec). */
  username: string | null;
  returnTo: string;
}

/** Validates the redirect back to `/auth/callback` and redeems its code (RFC 6749 §4.1.3, PKCE). */
export async function completeAuthorization(callbackUrl: URL): Promise<CompletedAuthorization> {
  const config = oauthConfig();
  const pending = takePendingAuthorization();
  if (!pending) {
    throw new OAuthSignInError(
      'This sign-in response was already used, or was not started in this tab. Sign in again.',
    );
  }
  const as = authorizationServer(config);
  const client: oauth.Client = { client_id: config.clientId };
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, client, callbackUrl, pending.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      if (error.error === 'access_denied') throw new ConsentDeniedError('Access was not granted.');
      throw new OAuthSignInError(
        `The server did not sign you in: ${error.error_description ?? error.error}.`,
      );
    }
    throw new OAuthSignInError(
      'The sign-in response does not match the request this tab made. Sign in again.',
    );
  }
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    parameters,
    redirectUri(),
    pending.codeVerifier,
    transportOptions(config.tokenEndpoint),
  );
  let result: oauth.TokenEndpointResponse;
  try {
    result = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) {
      throw new OAuthSignInError(
        `The server refused the sign-in: ${error.error_description ?? error.error}.`,
      );
    }
    throw error;
  }
  return {
    tokens: tokenSet(result, null),
    username: typeof result.username === 'string' ? result.username : null,
    returnTo: pending.returnTo,
  };
}

/** Spec §5.2 rule 5: a new access token from the refresh endpoint; a refusal ends the session. */
export async function refreshTokens(tokens: TokenSet): Promise<TokenSet> {
  const config = oauthConfig();
  if (tokens.refreshToken === null) throw new RefreshRefusedError('No refresh token');
  const as = authorizationServer(config, config.refreshEndpoint);
  const client: oauth.Client = { client_id: config.clientId };
  const response = await oauth.refreshTokenGrantRequest(
    as,
    client,
    oauth.None(),
    tokens.refreshToken,
    transportOptions(config.refreshEndpoint),
  );
  try {
    return tokenSet(await oauth.processRefreshTokenResponse(as, client, response), tokens);
  } catch (error) {
    if (
      error instanceof oauth.ResponseBodyError ||
      error instanceof oauth.WWWAuthenticateChallengeError
    ) {
      throw new RefreshRefusedError(error.message, { cause: error });
    }
    throw error;
  }
}

/**
 * Ends the server's login session and the grant (reference server: POST to the logout endpoint
 * with the access token), so the next sign-in asks for the password again. Best effort: the
 * dashboard forgets the tokens whatever the answer.
 */
export async function endServerSession(accessToken: string): Promise<void> {
  const config = oauthConfig();
  try {
    const response = await fetch(config.logoutEndpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      credentials: 'omit',
      signal: AbortSignal.timeout(5000),
    });
    await response.body?.cancel();
  } catch {
    // Unreachable server: the tokens are forgotten anyway.
  }
}
