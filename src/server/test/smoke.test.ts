import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

describeEachDialect('server basics', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('refuses a request without a key with the spec 401', async () => {
    const response = await server.request('GET', '/api/2/contacts/', { auth: '' });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ is_error: true, message: 'Authentication failed' });
    expect(response.headers['www-authenticate']).toMatch(/Basic/);
  });

  it('redirects a GET without its trailing slash with 301, other methods with 308, saying where in JSON', async () => {
    const get = await server.request('GET', '/api/2/contacts?limit=5');
    expect(get.status).toBe(301);
    expect(get.headers.location).toBe('/api/2/contacts/?limit=5');
    expect(get.json).toEqual({ location: '/api/2/contacts/?limit=5' });
    const post = await server.request('POST', '/api/2/contacts', { form: { emails: ['a@b.co'] } });
    expect(post.status).toBe(308);
    expect(post.headers.location).toBe('/api/2/contacts/');
    expect(post.json).toEqual({ location: '/api/2/contacts/' });
  });

  it('answers unknown routes with 404 in the error shape', async () => {
    const response = await server.request('GET', '/api/2/nothing/');
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ is_error: true });
  });
});
