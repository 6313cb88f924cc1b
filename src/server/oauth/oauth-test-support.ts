import { createHash, randomBytes } from 'node:crypto';
import type { Permission } from '../../api/constants.ts';
import { createUser } from '../services/provisioning.service.ts';
import type { TestServer } from '../test/harness.ts';
import { createClient, type CreatedClient } from './clients.service.ts';
import { SESSION_COOKIE } from './cookies.ts';
import { OAUTH_PAGE_PATHS as PATHS } from './paths.ts';

/**
 * Drives the authorization server over HTTP the way a browser and a client would, for the OAuth
 * test suites: a cookie jar, the sign-in and consent forms (with their CSRF tokens), and the
 * token endpoint.
 */
export const PASSWORD = 'correct horse battery staple';
export const REDIRECT_URI = 'https://client.example/cb';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: unknown;
  location: string | undefined;
}

/** One browser: its session cookie and its address. */
export class Browser {
  cookie: string | undefined;
  readonly remoteAddress: string;

  constructor(remoteAddress = '203.0.113.7') {
    this.remoteAddress = remoteAddress;
  }

  remember(answer: Answer): void {
    const header = answer.headers['set-cookie'];
    for (const line of Array.isArray(header) ? header : header === undefined ? [] : [String(header)]) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (pair.slice(0, eq) !== SESSION_COOKIE) continue;
      const value = pair.slice(eq + 1);
      this.cookie = /Max-Age=0(;|$)/.test(line) || value === '' ? undefined : value;
    }
  }
}

export interface SendOptions {
  form?: Record<string, string> | URLSearchParams;
  headers?: Record<string, string>;
  browser?: Browser;
  remoteAddress?: string;
}

export async function send(server: TestServer, method: string, url: string, options: SendOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.browser?.cookie) headers.cookie = `${SESSION_COOKIE}=${options.browser.cookie}`;
  let payload: string | undefined;
  if (options.form) {
    payload = new URLSearchParams(options.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  const response = await server.app.inject({
    method: method as 'GET',
    url,
    headers,
    payload,
    remoteAddress: options.remoteAddress ?? options.browser?.remoteAddress ?? '203.0.113.7',
  });
  let json: unknown;
  try {
    json = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    json = undefined;
  }
  const answer: Answer = {
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
    json,
    location: typeof response.headers.location === 'string' ? response.headers.location : undefined,
  };
  options.browser?.remember(answer);
  return answer;
}

export function registerClient(
  server: TestServer,
  options: { isPublic?: boolean; redirectUris?: string[]; name?: string } = {},
): Promise<CreatedClient> {
  return createClient(server.database.db, {
    name: options.name ?? 'Example client',
    redirectUris: options.redirectUris ?? [REDIRECT_URI],
    isPublic: options.isPublic ?? false,
  });
}

let people = 0;
/** A person who signs in; superadmin of the account unless told otherwise. */
export async function createPerson(
  server: TestServer,
  options: { accountId?: number | null; permissions?: Permission[]; username?: string } = {},
): Promise<{ id: number; username: string }> {
  people += 1;
  const username = options.username ?? `person${people}-${randomBytes(3).toString('hex')}@example.com`;
  const row = await createUser(server.database.db, {
    accountId: options.accountId === undefined ? server.account.id : options.accountId,
    username,
    password: PASSWORD,
    permissions: options.permissions ?? ['superadmin'],
    now: server.clock.now(),
  });
  return { id: row.id, username };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(params: Record<string, string>, path: string = PATHS.authorize): string {
  return `${path}?${new URLSearchParams(params).toString()}`;
}

/** The authorization request of a client, with PKCE, for `redirectUri`. */
export function requestParams(
  client: CreatedClient,
  options: { challenge?: string; scope?: string; state?: string; redirectUri?: string } = {},
): Record<string, string> {
  return {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: options.redirectUri ?? client.redirect_uris[0] ?? REDIRECT_URI,
    state: options.state ?? 'state-123',
    ...(options.scope === undefined ? {} : { scope: options.scope }),
    ...(options.challenge === undefined ? {} : { code_challenge: options.challenge, code_challenge_method: 'S256' }),
  };
}

export function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no CSRF token in the page');
  return match[1];
}

/** The hidden fields of the first form of a page, as the browser would post them. */
export function hiddenFieldsOf(html: string): URLSearchParams {
  const form = html.slice(html.indexOf('<form'), html.indexOf('</form>'));
  const fields = new URLSearchParams();
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) {
    fields.append(decodeEntities(match[1] ?? ''), decodeEntities(match[2] ?? ''));
  }
  return fields;
}

function decodeEntities(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** Opens the sign-in page of an authorization request and signs in. Returns the consent URL. */
export async function signIn(server: TestServer, browser: Browser, params: Record<string, string>, username: string): Promise<string> {
  const start = await send(server, 'GET', authorizeUrl(params), { browser });
  if (start.status !== 303 || !start.location?.startsWith(PATHS.login)) throw new Error(`authorize answered ${start.status} ${start.location}`);
  const page = await send(server, 'GET', start.location, { browser });
  const form = hiddenFieldsOf(page.body);
  form.set('username', username);
  form.set('password', PASSWORD);
  const posted = await send(server, 'POST', PATHS.login, { browser, form });
  if (posted.status !== 303 || !posted.location) throw new Error(`sign-in answered ${posted.status}`);
  return posted.location;
}

/** Consent page → Allow (or Deny): the redirect back to the client, as a URL. */
export async function decide(server: TestServer, browser: Browser, consentUrl: string, decision: 'allow' | 'deny'): Promise<URL> {
  const page = await send(server, 'GET', consentUrl, { browser });
  if (page.status === 303 && page.location) return new URL(page.location);
  if (page.status !== 200) throw new Error(`consent answered ${page.status}`);
  const form = hiddenFieldsOf(page.body);
  form.set('decision', decision);
  const posted = await send(server, 'POST', PATHS.consent, { browser, form });
  if (posted.status !== 303 || !posted.location) throw new Error(`consent answered ${posted.status}: ${posted.body}`);
  return new URL(posted.location);
}

/** The whole browser part: authorize, sign in (unless the browser is), allow. Returns the code. */
export async function obtainCode(
  server: TestServer,
  options: {
    client: CreatedClient;
    username: string;
    browser?: Browser;
    challenge?: string;
    scope?: string;
    redirectUri?: string;
  },
): Promise<string> {
  const browser = options.browser ?? new Browser();
  const params = requestParams(options.client, options);
  let consentUrl: string;
  if (browser.cookie) {
    const start = await send(server, 'GET', authorizeUrl(params), { browser });
    consentUrl = start.location ?? '';
    if (!consentUrl.startsWith(PATHS.consent)) consentUrl = await signIn(server, browser, params, options.username);
  } else {
    consentUrl = await signIn(server, browser, params, options.username);
  }
  const back = await decide(server, browser, consentUrl, 'allow');
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code in ${back.href}`);
  return code;
}

/** Client credentials as form fields (a public client sends its id only). */
export function clientFields(client: CreatedClient): Record<string, string> {
  return client.client_secret === undefined
    ? { client_id: client.client_id }
    : { client_id: client.client_id, client_secret: client.client_secret };
}

export function basicAuth(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function redeem(
  server: TestServer,
  client: CreatedClient,
  code: string,
  extra: Record<string, string> = {},
): Promise<Answer> {
  return send(server, 'POST', PATHS.token, {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirect_uris[0] ?? REDIRECT_URI,
      ...clientFields(client),
      ...extra,
    },
  });
}

export function refreshWith(
  server: TestServer,
  client: CreatedClient,
  refreshToken: string,
  path: string = PATHS.token,
): Promise<Answer> {
  return send(server, 'POST', path, {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, ...clientFields(client) },
  });
}

/** RFC 6749 §5.1, as the token endpoint answers it. */
export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** The tokens of a successful token response (throws on any other answer). */
export function tokensOf(answer: Answer): TokenAnswer {
  if (answer.status !== 200) throw new Error(`token endpoint answered ${answer.status}: ${answer.body}`);
  return answer.json as TokenAnswer;
}

/** A complete grant: code obtained and redeemed. Returns the token response. */
export async function obtainTokens(
  server: TestServer,
  options: { client: CreatedClient; username: string; scope?: string; browser?: Browser },
): Promise<TokenAnswer> {
  const { verifier, challenge } = pkcePair();
  const code = await obtainCode(server, { ...options, challenge });
  return tokensOf(await redeem(server, options.client, code, { code_verifier: verifier }));
}

export function api(server: TestServer, method: string, url: string, token: string, form?: Record<string, string>): Promise<Answer> {
  return send(server, method, url, { headers: { authorization: `Bearer ${token}` }, ...(form ? { form } : {}) });
}
