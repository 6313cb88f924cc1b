import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';

const origin = 'https://dash.example';

describe('parseConfig (/config.json)', () => {
  it("reads the reference server's configuration", () => {
    const config = parseConfig(
      {
        api_base_url: '',
        client_id: 'listkeeper-dashboard',
        issuer: 'https://dash.example',
        authorization_endpoint: 'https://dash.example/api/2/oauth/authorize/',
        token_endpoint: 'https://dash.example/api/2/oauth/token/',
      },
      origin,
    );
    expect(config).toEqual({
      apiBaseUrl: '',
      problem: null,
      oauth: {
        clientId: 'listkeeper-dashboard',
        issuer: 'https://dash.example',
        authorizationEndpoint: 'https://dash.example/api/2/oauth/authorize/',
        tokenEndpoint: 'https://dash.example/api/2/oauth/token/',
        refreshEndpoint: 'https://dash.example/api/2/oauth/refresh/',
        logoutEndpoint: 'https://dash.example/api/2/oauth/logout/',
      },
    });
  });

  it('resolves endpoints against another API server, keeping its path', () => {
    const config = parseConfig(
      {
        api_base_url: 'https://api.example/v/',
        client_id: 'c',
        authorization_endpoint: 'https://login.example/authorize',
        token_endpoint: 'token/',
        refresh_endpoint: 'https://api.example/refresh/',
      },
      origin,
    );
    expect(config.apiBaseUrl).toBe('https://api.example/v');
    expect(config.oauth).toMatchObject({
      issuer: 'https://login.example',
      tokenEndpoint: 'https://api.example/v/token/',
      refreshEndpoint: 'https://api.example/refresh/',
      logoutEndpoint: 'https://api.example/v/api/2/oauth/logout/',
    });
  });

  it('leaves key sign-in working without OAuth, and says why', () => {
    for (const body of [
      null,
      [],
      'text',
      { api_base_url: '' },
      { client_id: 'c', authorization_endpoint: 7 },
    ]) {
      const config = parseConfig(body, origin);
      expect(config.oauth).toBeNull();
      expect(config.problem).toMatch(/^OAuth sign-in is unavailable/);
    }
  });

  it("reads a gateway's configuration: no OAuth of the page's own, the gateway's instead", () => {
    expect(
      parseConfig(
        { mode: 'gateway', api_base_url: '', oauth: true, upstream_name: 'api.example' },
        origin,
      ),
    ).toEqual({
      apiBaseUrl: '',
      oauth: null,
      problem: null,
      gateway: { oauth: true, upstreamName: 'api.example' },
    });
    expect(parseConfig({ mode: 'gateway', oauth: 'yes' }, origin).gateway).toEqual({
      oauth: false,
      upstreamName: 'the API server',
    });
  });
});
