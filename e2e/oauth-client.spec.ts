import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import * as oauth from 'oauth4webapi';
import { expect, test, type RunningServer } from './fixtures/server.ts';

/**
 * Issue #4, item 8: oauth4webapi, an independent OAuth 2.0 client, runs the authorization code
 * flow with PKCE against the real server; Playwright is the person in Chromium who signs in and
 * consents. The client listens on a loopback redirect URI (RFC 8252) to catch the code.
 */
const PASSWORD = 'correct horse battery staple';
/** The server runs on http://127.0.0.1: oauth4webapi insists on https unless told otherwise. */
const insecure = { [oauth.allowInsecureRequests]: true } as const;
/** RFC 8414 metadata, not OpenID Connect discovery (oauth4webapi's default). */
const discovery = { ...insecure, algorithm: 'oauth2' } as const;

interface RegisteredClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/** An account with one person who signs in, and a contact to see. Returns the username. */
async function personWithAccount(server: RunningServer): Promise<string> {
  const suffix = randomBytes(4).toString('hex');
  const account = `oauth-client-${suffix}`;
  await server.cli(['account', 'create', account]);
  const username = `ada-${suffix}@example.com`;
  await server.cli(['user', 'create', '--account', account, '--username', username], { stdin: `${PASSWORD}\n` });
  const key = (await server.cli(['key', 'create', '--account', account])) as { key: string };
  const created = await fetch(`${server.url}/api/2/contacts/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ firstname: 'Grace', emails: `grace-${suffix}@example.com` }),
  });
  expect(created.status).toBe(200);
  return username;
}

/** The client's loopback redirect URI: records every callback, answers a plain page. */
async function loopbackListener(): Promise<{ uri: string; callbacks: URL[]; close: () => Promise<void> }> {
  const callbacks: URL[] = [];
  const listener: Server = createServer((request, response) => {
    // Only the redirect URI counts (the browser also asks for /favicon.ico).
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') callbacks.push(url);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You may close this window.');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    uri: `http://127.0.0.1:${address.port}/callback`,
    callbacks,
    close: () => new Promise((resolve) => listener.close(() => resolve())),
  };
}

/** SECURITY.md 24: the server's pages raise no CSP violation. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** What the client does before sending the person to the server: PKCE, state, the URL. */
async function authorizationRequest(as: oauth.AuthorizationServer, client: RegisteredClient, scope?: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint ?? '');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', client.redirect_uris[0] ?? '');
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (scope) url.searchParams.set('scope', scope);
  return { url, verifier, state };
}

async function callApi(server: RunningServer, accessToken: string): Promise<Response> {
  return fetch(`${server.url}/api/2/contacts/`, { headers: { authorization: `Bearer ${accessToken}` } });
}

test.describe('OAuth 2.0 with an independent client (oauth4webapi)', () => {
  let listener: Awaited<ReturnType<typeof loopbackListener>>;
  test.beforeEach(async () => {
    listener = await loopbackListener();
  });
  test.afterEach(async () => {
    await listener.close();
  });

  /** The operator registers the client with the CLI; the client discovers the server (RFC 8414). */
  async function setUp(server: RunningServer) {
    const username = await personWithAccount(server);
    const registered = (await server.cli([
      'oauth-client', 'create', '--name', 'Example Reports', '--redirect-uri', listener.uri,
    ])) as RegisteredClient;
    expect(registered.client_secret).toBeTruthy();
    const issuer = new URL(server.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, discovery));
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    const client: oauth.Client = { client_id: registered.client_id };
    const clientAuth = oauth.ClientSecretBasic(registered.client_secret);
    return { username, registered, as, client, clientAuth };
  }

  /** Waits for the browser to arrive at the redirect URI; oauth4webapi checks state and iss. */
  async function callbackParams(as: oauth.AuthorizationServer, client: oauth.Client, page: Page, state: string) {
    await expect(page.getByText('You may close this window.')).toBeVisible();
    const callback = listener.callbacks.at(-1);
    if (!callback) throw new Error('the browser never reached the redirect URI');
    return oauth.validateAuthResponse(as, client, callback, state);
  }

  test('signs in, consents, and uses, refreshes and loses its tokens', async ({ page, server }) => {
    const violations = watchCsp(page);
    const { username, registered, as, client, clientAuth } = await setUp(server);
    const request = await authorizationRequest(as, registered, 'contacts:read lists:read');

    // The person's part, in Chromium.
    await page.goto(request.url.href);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' })).toBeVisible();
    await expect(page.getByText('Example Reports')).toBeVisible();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The username or the password is not correct.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Allow Example Reports to use your account?' })).toBeVisible();
    await expect(page.getByText('Read contacts, their email addresses and list memberships')).toBeVisible();
    await expect(page.getByText('Read lists and their settings')).toBeVisible();
    await page.getByRole('button', { name: 'Allow' }).click();

    // The client's part, in Node.
    const params = await callbackParams(as, client, page, request.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirect_uris[0] ?? '', request.verifier, insecure),
    );
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope).toBe('contacts:read lists:read');

    const contacts = await callApi(server, tokens.access_token);
    expect(contacts.status).toBe(200);
    const page1 = (await contacts.json()) as { count: number; data: { firstname: string }[] };
    expect(page1.data.map((c) => c.firstname)).toEqual(['Grace']);
    // Scopes bind the token: it may read contacts, not write them.
    const write = await fetch(`${server.url}/api/2/contacts/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ emails: 'nobody@example.com' }),
    });
    expect(write.status).toBe(403);

    // Refresh: a new pair; the old refresh token is spent.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token ?? '', insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await callApi(server, refreshed.access_token)).status).toBe(200);

    // Reusing the rotated refresh token revokes the whole grant (SECURITY.md 5).
    const reuse = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token ?? '', insecure),
    );
    await expect(reuse).rejects.toMatchObject({ error: 'invalid_grant' });
    const refused = await callApi(server, refreshed.access_token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ is_error: true, message: 'Authentication failed' });
    expect(violations).toEqual([]);
  });

  test('a signed-in browser skips the password; signing out revokes the grant', async ({ page, server }) => {
    const violations = watchCsp(page);
    const { username, registered, as, client, clientAuth } = await setUp(server);

    const first = await authorizationRequest(as, registered);
    await page.goto(first.url.href);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByText('You may close this window.')).toBeVisible();
    const denied = listener.callbacks.at(-1) ?? new URL('http://127.0.0.1/');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(() => oauth.validateAuthResponse(as, client, denied, first.state)).toThrow(oauth.AuthorizationResponseError);

    // The session answers the next request: consent without a password.
    const second = await authorizationRequest(as, registered);
    await page.goto(second.url.href);
    await expect(page.getByRole('heading', { level: 1, name: 'Allow Example Reports to use your account?' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();
    await page.getByRole('button', { name: 'Allow' }).click();
    const params = await callbackParams(as, client, page, second.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, registered.redirect_uris[0] ?? '', second.verifier, insecure),
    );
    expect((await callApi(server, tokens.access_token)).status).toBe(200);

    // The person signs out on the server's page.
    await page.goto('/api/2/oauth/logout/');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign out of Listkeeper?' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'You are signed out' })).toBeVisible();

    expect((await callApi(server, tokens.access_token)).status).toBe(401);
    const refresh = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token ?? '', insecure),
    );
    await expect(refresh).rejects.toMatchObject({ error: 'invalid_grant' });

    // And the next authorization asks for the password again.
    await page.goto((await authorizationRequest(as, registered)).url.href);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' })).toBeVisible();
    expect(violations).toEqual([]);
  });
});
