import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_FILE, loadGatewayConfig } from './config.ts';
import { createUpstream } from './upstream.ts';

/** `listkeeper dashboard`'s settings (issue 15 item 1; README "Dashboard in front of any API v2 server"). */
const SECRET = 's'.repeat(32);
const minimal = { UPSTREAM_URL: 'https://api.example.net', SESSION_SECRET: SECRET };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadGatewayConfig', () => {
  it('defaults: port 8080 on loopback, PUBLIC_URL from them, API keys only, the README’s lifetimes', () => {
    const config = loadGatewayConfig(minimal);
    expect(config).toMatchObject({
      upstreamUrl: 'https://api.example.net',
      upstreamName: 'api.example.net',
      oauthClient: null,
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:8080',
      dataDir: path.resolve('data'),
      databaseUrl: null,
      staticDir: path.resolve('dist'),
      logLevel: 'warn',
      upstreamTimeoutMs: 20_000,
      sessionIdleMs: 8 * 3600_000,
      sessionMaxMs: 7 * 24 * 3600_000,
      imageProxy: { allowPrivate: false, allowRanges: [] },
    });
    // The redirect URI is the default PUBLIC_URL's.
    expect(createUpstream(config).redirectUri).toBe('http://127.0.0.1:8080/auth/callback');
  });

  it('offers OAuth only with both the client id and the secret; one alone is refused', () => {
    const both = loadGatewayConfig({
      ...minimal,
      UPSTREAM_CLIENT_ID: ' lkc_1 ',
      UPSTREAM_CLIENT_SECRET: 'secret',
    });
    expect(both.oauthClient).toEqual({ clientId: 'lkc_1', clientSecret: 'secret' });
    expect(createUpstream(both).oauthOffered).toBe(true);
    // Empty or blank counts as not set (an env file with `UPSTREAM_CLIENT_ID=`).
    const neither = loadGatewayConfig({
      ...minimal,
      UPSTREAM_CLIENT_ID: '',
      UPSTREAM_CLIENT_SECRET: '  ',
    });
    expect(neither.oauthClient).toBeNull();
    expect(createUpstream(neither).oauthOffered).toBe(false);
    for (const half of [{ UPSTREAM_CLIENT_ID: 'lkc_1' }, { UPSTREAM_CLIENT_SECRET: 'secret' }])
      expect(() => loadGatewayConfig({ ...minimal, ...half })).toThrow(
        'set both UPSTREAM_CLIENT_ID and UPSTREAM_CLIENT_SECRET (OAuth sign-in), or neither (API keys only)',
      );
  });

  it('PUBLIC_URL is an origin and names the redirect URI; without it, HOST and PORT do', () => {
    const behindProxy = loadGatewayConfig({ ...minimal, PUBLIC_URL: 'https://dash.example.org/' });
    expect(behindProxy.publicUrl).toBe('https://dash.example.org');
    expect(createUpstream(behindProxy).redirectUri).toBe('https://dash.example.org/auth/callback');
    expect(() =>
      loadGatewayConfig({ ...minimal, PUBLIC_URL: 'https://dash.example.org/app' }),
    ).toThrow(/PUBLIC_URL is an origin/);
    expect(loadGatewayConfig({ ...minimal, HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe(
      'http://127.0.0.1:9000',
    );
    expect(loadGatewayConfig({ ...minimal, HOST: '::' }).publicUrl).toBe('http://[::1]:8080');
    // PORT=0: the port really bound names it.
    expect(loadGatewayConfig({ ...minimal, PORT: '0' }, 41234).publicUrl).toBe(
      'http://127.0.0.1:41234',
    );
  });

  it('UPSTREAM_URL: https, or http to loopback only; no credentials, query or fragment', () => {
    expect(
      loadGatewayConfig({ ...minimal, UPSTREAM_URL: 'https://api.example.net/v/' }).upstreamUrl,
    ).toBe('https://api.example.net/v');
    expect(
      loadGatewayConfig({ ...minimal, UPSTREAM_URL: 'http://127.0.0.1:8080' }).upstreamUrl,
    ).toBe('http://127.0.0.1:8080');
    for (const url of [
      'http://api.example.net',
      'https://user:pw@api.example.net',
      'https://api.example.net/?x=1',
      'ftp://api.example.net',
      'api.example.net',
    ])
      expect(() => loadGatewayConfig({ ...minimal, UPSTREAM_URL: url }), url).toThrow(
        /UPSTREAM_URL/,
      );
    expect(() => loadGatewayConfig({ SESSION_SECRET: SECRET })).toThrow(/UPSTREAM_URL/);
  });

  it('SESSION_SECRET: 32 characters at least; without it, one is generated once and kept in DATA_DIR', () => {
    expect(() => loadGatewayConfig({ ...minimal, SESSION_SECRET: 'short' })).toThrow(
      /SESSION_SECRET needs at least 32 characters/,
    );
    const env = { UPSTREAM_URL: minimal.UPSTREAM_URL, DATA_DIR: dir };
    const first = loadGatewayConfig(env).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, SECRET_FILE), 'utf8').trim()).toBe(first);
    // A restart, or another process on the same DATA_DIR, reads the same secret.
    expect(loadGatewayConfig(env).sessionSecret).toBe(first);
    expect(loadGatewayConfig({ ...env, SESSION_SECRET: SECRET }).sessionSecret).toBe(SECRET);
  });
});
