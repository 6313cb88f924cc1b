import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import { createClient, registerDashboardClient, type CreatedClient } from './clients.service.ts';
import {
  Browser,
  REDIRECT_URI,
  authorizeUrl,
  createPerson,
  decide,
  hiddenFieldsOf,
  pkcePair,
  registerClient,
  requestParams,
  send,
  signIn,
} from './oauth-test-support.ts';
import { OAUTH_PAGE_PATHS as PATHS } from './paths.ts';
import { redirectUriProblem } from './redirect-uri.ts';

describe('redirect URI registration (SECURITY.md 1)', () => {
  it('accepts https and loopback http, in canonical form', () => {
    expect(redirectUriProblem('https://client.example/cb')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:4000/cb')).toBeNull();
    expect(redirectUriProblem('http://[::1]:4000/cb')).toBeNull();
    expect(redirectUriProblem('http://localhost:4000/cb')).toBeNull();
  });

  it('refuses plain http elsewhere, credentials, fragments, relative and non-canonical URIs', () => {
    expect(redirectUriProblem('http://client.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://client.example:pw@evil.example/cb')).toMatch(/user name/);
    expect(redirectUriProblem('https://client.example/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('/cb')).toMatch(/absolute/);
    expect(redirectUriProblem('https://Client.example/cb')).toMatch(/canonical/);
    expect(redirectUriProblem('javascript:alert(1)')).not.toBeNull();
  });
});

describeEachDialect('OAuth authorization endpoint', (dialect) => {
  let server: TestServer;
  let client: CreatedClient;
  let publicClient: CreatedClient;
  let username: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    client = await registerClient(server);
    publicClient = await registerClient(server, {
      isPublic: true,
      redirectUris: ['http://127.0.0.1:4000/cb'],
    });
    username = (await createPerson(server)).username;
  });
  afterAll(() => server.close());

  it('refuses to register a client with an unsafe redirect URI', async () => {
    await expect(
      createClient(server.database.db, {
        name: 'x',
        redirectUris: ['http://evil.example/cb'],
        isPublic: true,
      }),
    ).rejects.toThrow(/https/);
  });

  // SECURITY.md 1: an untrusted client or redirect URI gets an error page, never a redirect.
  it.each([
    ['a query added', `${REDIRECT_URI}?x`],
    ['a trailing slash added', `${REDIRECT_URI}/`],
    ['credentials of another host', 'https://client.example:pw@evil.example/cb'],
    ['another host', 'https://evil.example/cb'],
    ['http instead of https', 'http://client.example/cb'],
    ['a fragment', `${REDIRECT_URI}#x`],
    ['a different case', 'https://CLIENT.example/cb'],
  ])('shows an error page, no Location, for a redirect_uri with %s', async (_what, redirectUri) => {
    for (const path of [PATHS.authorize, PATHS.login, PATHS.consent]) {
      const answer = await send(
        server,
        'GET',
        authorizeUrl({ ...requestParams(client), redirect_uri: redirectUri }, path),
      );
      expect(answer.status).toBe(400);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body).toContain('redirect_uri');
    }
  });

  it('shows an error page for a missing redirect_uri, an unknown client or none', async () => {
    const { redirect_uri: _, ...withoutUri } = requestParams(client);
    for (const params of [
      withoutUri,
      { ...requestParams(client), client_id: 'nobody' },
      { response_type: 'code' },
    ]) {
      const answer = await send(server, 'GET', authorizeUrl(params));
      expect(answer.status).toBe(400);
      expect(answer.headers.location).toBeUndefined();
    }
  });

  it('shows an error page when redirect_uri is given twice', async () => {
    const query = `${new URLSearchParams(requestParams(client)).toString()}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`;
    const answer = await send(server, 'GET', `${PATHS.authorize}?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.headers.location).toBeUndefined();
  });

  it('sends a valid request without a session to the sign-in page', async () => {
    const answer = await send(server, 'GET', authorizeUrl(requestParams(client)));
    expect(answer.status).toBe(303);
    expect(answer.location?.startsWith(`${PATHS.login}?`)).toBe(true);
    const carried = new URLSearchParams(answer.location?.split('?')[1]);
    expect(carried.get('client_id')).toBe(client.client_id);
    expect(carried.get('redirect_uri')).toBe(REDIRECT_URI);
  });

  // SECURITY.md 6: no implicit grant.
  it('answers response_type=token with unsupported_response_type at the client, never a token', async () => {
    const answer = await send(
      server,
      'GET',
      authorizeUrl({ ...requestParams(client), response_type: 'token' }),
    );
    expect(answer.status).toBe(302);
    const back = new URL(answer.location ?? '');
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('unsupported_response_type');
    expect(back.searchParams.get('state')).toBe('state-123');
    expect(back.searchParams.has('access_token')).toBe(false);
    expect(back.hash).toBe('');
  });

  // SECURITY.md 3: PKCE S256 for public clients.
  it('requires an S256 code_challenge from a public client', async () => {
    const { challenge } = pkcePair();
    const cases: Record<string, string>[] = [
      requestParams(publicClient),
      { ...requestParams(publicClient), code_challenge: challenge, code_challenge_method: 'plain' },
      { ...requestParams(publicClient), code_challenge: challenge },
      { ...requestParams(publicClient), code_challenge: 'short', code_challenge_method: 'S256' },
    ];
    for (const params of cases) {
      const answer = await send(server, 'GET', authorizeUrl(params));
      expect(answer.status).toBe(302);
      expect(new URL(answer.location ?? '').searchParams.get('error')).toBe('invalid_request');
    }
    const good = await send(
      server,
      'GET',
      authorizeUrl(requestParams(publicClient, { challenge })),
    );
    expect(good.status).toBe(303);
  });

  it('answers an unknown scope with invalid_scope', async () => {
    const answer = await send(
      server,
      'GET',
      authorizeUrl(requestParams(client, { scope: 'contacts:read everything' })),
    );
    expect(new URL(answer.location ?? '').searchParams.get('error')).toBe('invalid_scope');
  });

  it('returns code, state and iss to the client after sign-in and consent; Deny returns access_denied', async () => {
    const browser = new Browser();
    const params = requestParams(client, { state: 'xyz' });
    const consentUrl = await signIn(server, browser, params, username);
    expect(consentUrl.startsWith(`${PATHS.consent}?`)).toBe(true);
    const denied = await decide(server, browser, consentUrl, 'deny');
    expect(denied.origin + denied.pathname).toBe(REDIRECT_URI);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('xyz');

    // The same browser is signed in: the next request skips the password and goes to consent.
    const again = await send(server, 'GET', authorizeUrl(params), { browser });
    expect(again.location?.startsWith(`${PATHS.consent}?`)).toBe(true);
    const allowed = await decide(server, browser, again.location ?? '', 'allow');
    expect(allowed.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(allowed.searchParams.get('state')).toBe('xyz');
    expect(allowed.searchParams.get('iss')).toBe('http://127.0.0.1:8080');
  });

  it('skips the consent page for the dashboard, its own first-party client', async () => {
    await registerDashboardClient(server.database.db, 'http://127.0.0.1:8080');
    const dashboard: CreatedClient = {
      client_id: 'listkeeper-dashboard',
      name: 'Listkeeper dashboard',
      redirect_uris: ['http://127.0.0.1:8080/auth/callback'],
      public: true,
    };
    const browser = new Browser();
    const { challenge } = pkcePair();
    const consentUrl = await signIn(
      server,
      browser,
      requestParams(dashboard, { challenge }),
      username,
    );
    const page = await send(server, 'GET', consentUrl, { browser });
    expect(page.status).toBe(303);
    const back = new URL(page.location ?? '');
    expect(back.href.startsWith('http://127.0.0.1:8080/auth/callback?')).toBe(true);
    expect(back.searchParams.get('code')).toBeTruthy();
  });

  it('shows the client name escaped and the scopes on the consent page', async () => {
    const shady = await registerClient(server, { name: '<img src=x onerror=alert(1)>' });
    const browser = new Browser();
    const consentUrl = await signIn(
      server,
      browser,
      requestParams(shady, { scope: 'contacts:read lists:write' }),
      username,
    );
    const page = await send(server, 'GET', consentUrl, { browser });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain('Read contacts');
    expect(page.body).toContain('Create, change and delete lists');
    expect(page.body).not.toContain('Read list messages');
    // Attributes in any order: a submit button that sends decision=allow, another decision=deny.
    const buttons = [...page.body.matchAll(/<button ([^>]*)>([^<]*)<\/button>/g)].map(
      ([, attributes, label]) => ({ attributes, label }),
    );
    for (const [value, label] of [
      ['allow', 'Allow'],
      ['deny', 'Deny'],
    ]) {
      const button = buttons.find((b) => b.label === label);
      expect(button?.attributes).toMatch(/type="submit"/);
      expect(button?.attributes).toMatch(/name="decision"/);
      expect(button?.attributes).toContain(`value="${value}"`);
    }
    expect(hiddenFieldsOf(page.body).get('scope')).toBe('contacts:read lists:write');
  });

  // SECURITY.md 7: no CORS on the authorization endpoint or the sign-in page.
  it('never answers CORS on authorize, login or consent, even for a registered origin', async () => {
    const origin = 'https://client.example';
    for (const path of [PATHS.authorize, PATHS.login, PATHS.consent]) {
      const get = await send(server, 'GET', authorizeUrl(requestParams(client), path), {
        headers: { origin },
      });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await send(server, 'OPTIONS', path, {
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  // SECURITY.md 8.
  it('publishes RFC 8414 metadata with S256 as the only PKCE method', async () => {
    const answer = await send(server, 'GET', PATHS.metadata);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      issuer: 'http://127.0.0.1:8080',
      authorization_endpoint: 'http://127.0.0.1:8080/api/2/oauth/authorize/',
      token_endpoint: 'http://127.0.0.1:8080/api/2/oauth/token/',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    const metadata = answer.json as { scopes_supported: string[]; grant_types_supported: string[] };
    expect(metadata.scopes_supported).toContain('contacts:read');
    expect(metadata.grant_types_supported).not.toContain('password');
    expect(metadata.grant_types_supported).not.toContain('implicit');
  });

  // SECURITY.md 34, issue 16 finding 7: PUBLIC_URL is unset here, and a forged Host changes nothing.
  it('takes the issuer from configuration (HOST:PORT without PUBLIC_URL), never from the Host header', async () => {
    const forged = { host: 'evil.example:666', 'x-forwarded-host': 'evil.example' };
    const metadata = await send(server, 'GET', PATHS.metadata, { headers: forged });
    expect(metadata.json).toMatchObject({
      issuer: 'http://127.0.0.1:8080',
      authorization_endpoint: 'http://127.0.0.1:8080/api/2/oauth/authorize/',
    });
    const config = await send(server, 'GET', PATHS.dashboardConfig, { headers: forged });
    expect(config.json).toMatchObject({ issuer: 'http://127.0.0.1:8080' });
    expect(JSON.stringify([metadata.json, config.json])).not.toContain('evil');
  });

  it('serves the dashboard configuration at /config.json', async () => {
    const answer = await send(server, 'GET', PATHS.dashboardConfig);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      api_base_url: '',
      client_id: 'listkeeper-dashboard',
      issuer: 'http://127.0.0.1:8080',
      authorization_endpoint: 'http://127.0.0.1:8080/api/2/oauth/authorize/',
      token_endpoint: 'http://127.0.0.1:8080/api/2/oauth/token/',
    });
  });

  it('serves the pages stylesheet', async () => {
    const answer = await send(server, 'GET', PATHS.stylesheet);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/css/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});
