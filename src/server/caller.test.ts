import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cidrIncludes } from '../api/cidr.ts';
import { Caller } from '../api/schemas/caller.ts';
import { isErrorShape, urlOf } from './test/fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

/**
 * The `caller.get` extension (src/api/operations.ts): the address the server checks a `cidr`
 * against (SECURITY.md 18), so the dashboard can warn before a restriction shuts its user out, and
 * the caller's own administrator entry and account, so it shows only what they may do.
 */
const URL = urlOf('caller.get');

describeEachDialect('caller.get extension: the address the cidr check sees', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const addressOf = async (options: {
    key?: string;
    remoteAddress?: string;
    headers?: Record<string, string>;
    query?: Record<string, unknown>;
  }) => {
    const response = await server.request('GET', URL, options);
    expect(response.status, response.body).toBe(200);
    return Caller.parse(response.json).address;
  };

  it('answers the socket address, IPv4, IPv6 or IPv4 mapped into IPv6, as it arrived', async () => {
    for (const remoteAddress of ['10.1.2.3', '2001:db8::7', '::ffff:192.0.2.9', '127.0.0.1']) {
      expect(await addressOf({ remoteAddress })).toBe(remoteAddress);
    }
  });

  it('answers a global key with or without account_id (no account data is read)', async () => {
    expect(await addressOf({ key: server.globalKey, remoteAddress: '10.0.0.5' })).toBe('10.0.0.5');
    expect(
      await addressOf({
        key: server.globalKey,
        remoteAddress: '10.0.0.6',
        query: { account_id: server.account.id },
      }),
    ).toBe('10.0.0.6');
  });

  it('ignores X-Forwarded-For when TRUST_PROXY is not set', async () => {
    expect(
      await addressOf({ remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '10.1.2.3' } }),
    ).toBe('127.0.0.1');
  });

  it('is the address the cidr check used: a range the contract says holds it lets the key in', async () => {
    const remoteAddress = '::ffff:192.0.2.9';
    const ranges = [
      '192.0.2.0/24',
      '192.0.2.9/32',
      '192.0.2.10/32',
      '0.0.0.0/0',
      '::/0',
      '198.51.100.0/24',
    ];
    for (const cidr of ranges) {
      const restricted = await server.createKey({
        accountId: server.account.id,
        permissions: ['superadmin'],
        cidr,
      });
      const response = await server.request('GET', URL, { key: restricted, remoteAddress });
      const expected = cidrIncludes(cidr, remoteAddress);
      expect(response.status, `${cidr}: ${response.body}`).toBe(expected ? 200 : 401);
      if (expected) expect(Caller.parse(response.json).address).toBe(remoteAddress);
    }
  });

  it('answers any key with a permission, and needs a key at all', async () => {
    const weak = await server.createKey({ accountId: server.account.id, permissions: ['approval'] });
    expect((await server.request('GET', URL, { key: weak })).status).toBe(200);
    const none = await server.createKey({ accountId: server.account.id, permissions: [] });
    const refused = await server.request('GET', URL, { key: none });
    expect(refused.status).toBe(403);
    expect(isErrorShape(refused.json)).toBe(true);
    expect((await server.request('GET', URL, { auth: '' })).status).toBe(401);
  });

  it("names the key's own entry: its permissions, limits and account", async () => {
    const moderator = await server.createKey({
      accountId: server.account.id,
      permissions: ['approval', 'messages', 'limit_lists'],
    });
    const caller = Caller.parse((await server.request('GET', URL, { key: moderator })).json);
    expect(caller.administrator).toMatchObject({
      username: null,
      permissions: ['approval', 'messages', 'limit_lists'],
      limit_lists: [],
    });
    expect(caller.account).toEqual({ id: server.account.id, name: server.account.name });
  });

  it("a global key: the group's, with no account, whatever account_id addresses", async () => {
    const answer = await server.request('GET', URL, {
      key: server.globalKey,
      query: { account_id: server.account.id },
    });
    const caller = Caller.parse(answer.json);
    expect(caller.account).toBeNull();
    expect(caller.administrator?.permissions).toEqual(['superadmin', 'account']);
    expect(answer.body).not.toContain(server.account.name);
  });

  it('takes no query parameters', async () => {
    const response = await server.request('GET', `${URL}?address=1.2.3.4`);
    expect(response.status).toBe(400);
    expect(isErrorShape(response.json)).toBe(true);
  });
});

describeEachDialect('caller.get behind a trusted proxy (SECURITY.md 18)', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, { trustProxy: '127.0.0.1' });
  });
  afterAll(() => server.close());

  const ask = (remoteAddress: string, forwardedFor: string) =>
    server.request('GET', URL, { remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  describe('answers what the cidr check believes', () => {
    it('the address the named proxy appended, not what the client wrote before it', async () => {
      expect(Caller.parse((await ask('127.0.0.1', '10.1.2.3')).json).address).toBe('10.1.2.3');
      expect(Caller.parse((await ask('127.0.0.1', '10.1.2.3, 192.168.1.1')).json).address).toBe(
        '192.168.1.1',
      );
    });

    it('the socket address when the peer is not the proxy', async () => {
      expect(Caller.parse((await ask('192.168.1.1', '10.1.2.3')).json).address).toBe('192.168.1.1');
    });
  });
});
