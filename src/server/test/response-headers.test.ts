import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import { OAUTH_PAGE_PATHS } from '../oauth/paths.ts';
import { API_HEADERS, PAGE_SECURITY_HEADERS } from '../http/security-headers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Every answer carries its security headers: the API's (no sniffing, no caching) on everything under
 * /api/ that is not a page, the page headers of SECURITY.md 24 on pages and files. The operations
 * set theirs in their handler and every other answer gets them from a route hook or the not-found
 * and error handlers (app.ts), so each way out is checked here: successes, refusals, errors the
 * router raises, redirects and unknown URLs.
 */

type Headers = Record<string, string | string[] | number | undefined>;

function expectApiHeaders(headers: Headers, what: string): void {
  for (const [name, value] of Object.entries(API_HEADERS))
    expect(headers[name], `${what}: ${name}`).toBe(value);
  expect(headers['content-security-policy'], `${what}: no page policy on JSON`).toBeUndefined();
}

function expectPageHeaders(headers: Headers, what: string): void {
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS))
    expect(headers[name], `${what}: ${name}`).toBe(value);
}

/** An operation's URL with every path parameter filled with a value no object has. */
function urlOf(name: OperationName): string {
  return `/api/2${OPERATIONS[name].path.replace(/:[a-z_]+/g, 'nothing-here')}`;
}

describe('security headers on every answer', () => {
  let server: TestServer;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-dashboard-'));
    fs.writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><title>Listkeeper</title>',
    );
    fs.writeFileSync(path.join(staticDir, 'app.js'), 'export {};');
    server = await startTestServer('sqlite', { staticDir });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('sends the API headers with every operation, answered or refused', async () => {
    const names = Object.keys(OPERATIONS) as OperationName[];
    for (const name of names) {
      const { method } = OPERATIONS[name];
      const answered = await server.request(method, urlOf(name));
      expectApiHeaders(answered.headers, `${name} ${answered.status}`);
      const refused = await server.request(method, urlOf(name), { auth: 'Bearer not-a-key' });
      expect(refused.status, name).toBe(401);
      expectApiHeaders(refused.headers, `${name} 401`);
    }
  });

  it('sends them with a success and its rate-limit headers', async () => {
    const answer = await server.request('GET', '/api/2/contacts/');
    expect(answer.status).toBe(200);
    expectApiHeaders(answer.headers, 'contacts.list');
    expect(answer.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('sends them with unknown API URLs, redirects, malformed URLs and tokens in URLs', async () => {
    const cases: [string, string, number][] = [
      ['GET', '/api/2/nothing/', 404],
      ['GET', '/api/2/contacts', 301],
      ['POST', '/api/2/contacts', 308],
      ['GET', '/api/2/contacts/%E0%A4%A/', 400],
      ['GET', '/api/2/contacts/?access_token=abc', 400],
      ['GET', '/api/2/nothing/?access_token=abc', 400],
      ['GET', '/api/2/contacts?access_token=abc', 400],
      ['POST', '/api/2/contacts/', 415],
    ];
    for (const [method, url, status] of cases) {
      // The 415 needs a type nobody reads; the redirect answers any type.
      const contentType = status === 415 ? 'application/xml' : 'text/plain';
      const answer = await server.request(
        method,
        url,
        method === 'POST' ? { body: '{}', contentType } : {},
      );
      expect(answer.status, `${method} ${url}: ${answer.body}`).toBe(status);
      expectApiHeaders(answer.headers, `${method} ${url}`);
    }
  });

  it("keeps a route's own header: the sign-in pages' stylesheet may be cached", async () => {
    const answer = await server.request('GET', OAUTH_PAGE_PATHS.stylesheet);
    expect(answer.status).toBe(200);
    expect(String(answer.headers['content-type'])).toMatch(/^text\/css/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
  });

  it('refuses a token in the URL of the OAuth routes too (SECURITY.md 11)', async () => {
    const answer = await server.request('GET', `${OAUTH_PAGE_PATHS.login}?access_token=abc`);
    expect(answer.status, answer.body).toBe(400);
    expectApiHeaders(answer.headers, 'sign-in page with a token');
  });

  it('sends the page headers with the dashboard, its files, unknown files and the OAuth pages (SECURITY.md 24)', async () => {
    const cases: [string, number, RegExp][] = [
      ['/', 200, /^text\/html/],
      ['/contacts/12', 200, /^text\/html/],
      ['/app.js', 200, /javascript/],
      ['/missing.js', 404, /^text\/plain/],
      [OAUTH_PAGE_PATHS.dashboardConfig, 200, /^application\/json/],
    ];
    for (const [url, status, type] of cases) {
      const answer = await server.request('GET', url);
      expect(answer.status, url).toBe(status);
      expect(String(answer.headers['content-type']), url).toMatch(type);
      expectPageHeaders(answer.headers, url);
    }
  });
});
