import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

describeEachDialect('lists quick', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());
  it('works', async () => {
    const c = await server.request('POST', '/api/2/lists/', { form: { name: 'news', taboo_body: ['a+', 'b'] } });
    expect(c.status).toBe(200);
    const r = await server.request('GET', '/api/2/lists/');
    expect(r.json).toEqual({ data: [c.json] });
  });
});
