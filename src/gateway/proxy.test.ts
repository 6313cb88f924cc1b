import { describe, expect, it } from 'vitest';
import { apiPathProblem, browserResponseHeaders, upstreamRequestHeaders } from './proxy.ts';

describe('apiPathProblem (SECURITY.md 26)', () => {
  it('forwards the paths of API v2, encoded addresses and queries included', () => {
    for (const url of [
      '/api/2/',
      '/api/2/contacts/',
      '/api/2/contacts/?search=a%2Fb&limit=10',
      '/api/2/emails/ada%40example.com/',
      '/api/2/users/ada%2Bnews%40example.com/',
      '/api/2/lists/news.letter/',
      '/api/2/messages/7/images/?url=https%3A%2F%2Fimg.example%2F..%2Fa.png',
      '/api/2/contacts/?q=..',
    ])
      expect(apiPathProblem(url), url).toBeNull();
  });

  it('forwards nothing outside /api/2/ and no other host', () => {
    for (const url of ['/', '/config.json', '/api/1/contacts/', '/api/2', '/api/20/', '/auth/session', 'http://evil.example/api/2/contacts/', '//evil.example/api/2/'])
      expect(apiPathProblem(url), url).toMatch(/Only \/api\/2\//);
  });

  it('refuses a path that leaves /api/2/, however its dots and slashes are encoded', () => {
    for (const url of [
      '/api/2/../config.json',
      '/api/2/./contacts/',
      '/api/2/%2e%2e/config.json',
      '/api/2/%2E%2E/',
      '/api/2/.%2e/',
      '/api/2/contacts/%2e%2e%2f%2e%2e%2fadmin/',
      '/api/2/contacts%2f..%2f..%2fadmin/',
      '/api/2/contacts/%5c..%5cadmin/',
      '/api/2/contacts/\\..\\admin/',
      '/api/2/%252e%252e/',
      '/api/2/contacts/%252f/',
      '/api/2/contacts/%25252e%25252e/',
      '/api/2/contacts/%2525252e%2525252e/',
      '/api/2//contacts/',
      '/api/2/..;/config.json',
      '/api/2/contacts/..;jsessionid=x/..;/admin/',
      '/api/2/.;/contacts/',
      '/api/2/%2e%2e%3b/config.json',
      '/api/2/contacts/%E0%A4%A/',
    ])
      expect(apiPathProblem(url), url).not.toBeNull();
  });
});

describe('headers across the proxy', () => {
  it('sends the content headers and its own Authorization; never the cookie, the browser’s Authorization or hop-by-hop headers', () => {
    const headers = upstreamRequestHeaders(
      {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'listkeeper-session=secret',
        authorization: 'Bearer forged',
        connection: 'keep-alive, x-private',
        'x-private': '1',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        upgrade: 'websocket',
        'proxy-authorization': 'Basic x',
        te: 'trailers',
        host: 'dash.example',
        origin: 'https://dash.example',
        'x-forwarded-for': '6.6.6.6',
      },
      'Bearer real',
      '203.0.113.9',
    );
    expect(headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      authorization: 'Bearer real',
      'x-forwarded-for': '203.0.113.9',
    });
  });

  it('passes the rate limit, content type and ignored fields back, never cookies, WWW-Authenticate or cache headers', () => {
    const upstream = new Headers({
      'content-type': 'application/json; charset=utf-8',
      'x-ignored-fields': 'shoe_size',
      'retry-after': '120',
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1800000000',
      'set-cookie': 'upstream=1',
      'www-authenticate': 'Basic realm="api"',
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
      connection: 'close',
    });
    expect(browserResponseHeaders(upstream, 'https://api.example')).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'x-ignored-fields': 'shoe_size',
      'retry-after': '120',
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1800000000',
      'cache-control': 'no-store',
    });
  });

  it('keeps a redirect within the API (spec §1 rule 1), under the upstream’s base path', () => {
    const location = (value: string, base = 'https://api.example') =>
      browserResponseHeaders(new Headers({ location: value }), base).location;
    expect(location('/api/2/contacts/?page=2')).toBe('/api/2/contacts/?page=2');
    expect(location('https://api.example/api/2/lists/')).toBe('/api/2/lists/');
    expect(location('https://api.example/v/api/2/lists/', 'https://api.example/v')).toBe('/api/2/lists/');
    expect(location('https://evil.example/api/2/lists/')).toBeUndefined();
    expect(location('/login')).toBeUndefined();
  });
});
