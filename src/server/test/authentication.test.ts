import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_FAILED } from '../../api/constants.ts';
import { hashKey } from '../auth/keys.ts';
import { databaseSnapshot } from './db-snapshot.ts';
import { isErrorShape, urlOf } from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestResponse, type TestServer } from './harness.ts';

/**
 * SECURITY.md 18–19 and spec §5.1: how a request proves who it is. Every failure (unknown, expired,
 * malformed, outside the key's `cidr`) is the same 401; the address checked is the socket's, and
 * X-Forwarded-For counts only from a proxy named in TRUST_PROXY.
 */

const URL = urlOf('lists.list');
const FAILED_BODY = { is_error: true, message: AUTHENTICATION_FAILED };

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
const randomKey = () => randomBytes(32).toString('base64url');

function expectAuthenticationFailed(response: TestResponse, label: string): void {
  expect(response.status, `${label}: ${response.body}`).toBe(401);
  expect(response.json, label).toEqual(FAILED_BODY);
  expect(response.headers['www-authenticate'], label).toMatch(/^(Basic|Bearer)\b/);
}

describeEachDialect('authentication (SECURITY.md 18–19)', (dialect) => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    key = server.accountKey;
  });
  afterAll(() => server.close());

  const get = (auth: string, remoteAddress?: string, headers?: Record<string, string>) =>
    server.request('GET', URL, { auth, remoteAddress, headers });

  describe('one 401 for every failure', () => {
    it('answers unknown and malformed credentials with the identical body and WWW-Authenticate', async () => {
      const cases: Record<string, string> = {
        'no credentials': '',
        'unknown Bearer key': `Bearer ${randomKey()}`,
        'unknown Basic key': basic(`${randomKey()}:`),
        'Basic garbage': 'Basic !!!not-base64!!!',
        'Basic with a password': basic(`${key}:secret`),
        'Basic with an empty key': basic(':'),
        'empty Basic': 'Basic ',
        'empty Bearer': 'Bearer ',
        'Bearer without a token': 'Bearer',
        'wrong scheme': `Token ${key}`,
        'Digest scheme': `Digest username="${key}"`,
        'no scheme': key,
        'Bearer with trailing words': `Bearer ${key} extra`,
        'Bearer with a near-miss key': `Bearer ${key}x`,
        'Bearer with a truncated key': `Bearer ${key.slice(0, -1)}`,
        'Basic of a Bearer header': basic(`Bearer ${key}:`),
      };
      const bodies = new Set<string>();
      for (const [label, auth] of Object.entries(cases)) {
        const response = await get(auth);
        expectAuthenticationFailed(response, label);
        bodies.add(response.body);
      }
      // Byte-identical: the answer tells an attacker nothing about why it failed.
      expect([...bodies]).toHaveLength(1);
    });

    it('refuses an expired key with the same 401', async () => {
      const expiring = await server.createKey({ accountId: server.account.id, permissions: ['superadmin'], expiryMonths: 1 });
      expect((await get(`Bearer ${expiring}`)).status).toBe(200);
      await server.database.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(server.clock.now().getTime() - 1000).toISOString() })
        .where('key_hash', '=', hashKey(expiring))
        .execute();
      server.forgetCachedAuth();
      const unknown = await get(`Bearer ${randomKey()}`);
      for (const auth of [`Bearer ${expiring}`, basic(`${expiring}:`)]) {
        const response = await get(auth);
        expectAuthenticationFailed(response, 'expired key');
        expect(response.body).toBe(unknown.body);
      }
    });
  });

  describe('the accepted forms (spec §5.1 rule 4)', () => {
    it('accepts Bearer, Basic with an empty password, and Basic with the password omitted', async () => {
      for (const auth of [`Bearer ${key}`, basic(`${key}:`), basic(key)]) {
        const response = await get(auth);
        expect(response.status, `${auth}: ${response.body}`).toBe(200);
      }
    });

    it('reads the scheme name case-insensitively (RFC 9110 §11.1)', async () => {
      for (const auth of [`bearer ${key}`, `BEARER ${key}`, basic(`${key}:`).replace('Basic', 'basic')]) {
        expect((await get(auth)).status, auth).toBe(200);
      }
    });
  });

  describe('keys never travel in URLs (SECURITY.md 11)', () => {
    it('does not authenticate with ?access_token=', async () => {
      // Refused either as a failed authentication (401) or as a bad request (400): never served.
      for (const [label, auth] of [
        ['access_token alone', ''],
        ['access_token with an unknown key', `Bearer ${randomKey()}`],
        ['access_token beside garbage', 'Basic !!!'],
      ]) {
        for (const url of [`${URL}?access_token=${key}`, `${URL}?ACCESS_TOKEN=${key}`, `${URL}?access%5Ftoken=${key}`]) {
          const response = await server.request('GET', url, { auth });
          expect([400, 401], `${label} ${url}: ${response.body}`).toContain(response.status);
          expect(isErrorShape(response.json), response.body).toBe(true);
        }
      }
    });

    it('refuses ?access_token= beside a valid key, on reads and on writes', async () => {
      const read = await server.request('GET', `${URL}?access_token=${key}`);
      expect(read.status, read.body).toBe(400);
      const before = await databaseSnapshot(server.database.db);
      const write = await server.request('POST', `${urlOf('lists.create')}?access_token=${key}`, { form: { name: 'tokenlist' } });
      expect(write.status, write.body).toBe(400);
      expect(await databaseSnapshot(server.database.db)).toBe(before);
    });
  });

  describe('cidr restriction against the socket address (SECURITY.md 18)', () => {
    const cidrCases: [cidr: string, allowed: string[], refused: string[]][] = [
      ['10.0.0.0/8', ['10.1.2.3', '10.0.0.0', '10.255.255.255', '::ffff:10.1.2.3'], ['192.168.1.1', '11.0.0.1', '::ffff:192.168.1.1', '2001:db8::1', '::1']],
      ['2001:db8:1:2::/64', ['2001:db8:1:2::5', '2001:db8:1:2:ffff:ffff:ffff:ffff'], ['2001:db8:1:3::5', '2001:db8::1', '10.1.2.3']],
      ['0.0.0.0/0', ['1.2.3.4', '10.1.2.3', '255.255.255.255', '127.0.0.1', '::ffff:8.8.8.8'], []],
      ['::/0', ['2001:db8::1', '::1', 'fe80::1'], []],
      ['10.1.2.3/32', ['10.1.2.3', '::ffff:10.1.2.3'], ['10.1.2.4', '10.1.2.2', '::ffff:10.1.2.4']],
      ['10.1.2.3', ['10.1.2.3'], ['10.1.2.4']],
      ['2001:db8::1/128', ['2001:db8::1'], ['2001:db8::2']],
    ];

    for (const [cidr, allowed, refused] of cidrCases) {
      it(`${cidr}: allows ${allowed.join(', ')}${refused.length ? `; refuses ${refused.join(', ')}` : ''}`, async () => {
        const restricted = await server.createKey({ accountId: server.account.id, permissions: ['superadmin'], cidr });
        for (const address of allowed) {
          const response = await get(`Bearer ${restricted}`, address);
          expect(response.status, `${address}: ${response.body}`).toBe(200);
        }
        for (const address of refused) expectAuthenticationFailed(await get(`Bearer ${restricted}`, address), address);
      });
    }

    it('ignores X-Forwarded-For when TRUST_PROXY is not set', async () => {
      const restricted = await server.createKey({ accountId: server.account.id, permissions: ['superadmin'], cidr: '10.0.0.0/8' });
      expectAuthenticationFailed(
        await get(`Bearer ${restricted}`, '127.0.0.1', { 'x-forwarded-for': '10.1.2.3' }),
        'forwarded for an allowed address by an untrusted peer',
      );
      const direct = await get(`Bearer ${restricted}`, '10.1.2.3', { 'x-forwarded-for': '192.168.1.1' });
      expect(direct.status, direct.body).toBe(200);
    });
  });
});

describeEachDialect('authentication behind a trusted proxy (SECURITY.md 18)', (dialect) => {
  let server: TestServer;
  let restricted: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { trustProxy: '127.0.0.1' });
    restricted = await server.createKey({ accountId: server.account.id, permissions: ['superadmin'], cidr: '10.0.0.0/8' });
  });
  afterAll(() => server.close());

  const get = (remoteAddress: string, forwardedFor: string) =>
    server.request('GET', URL, { key: restricted, remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  it('believes X-Forwarded-For from the proxy named in TRUST_PROXY', async () => {
    const response = await get('127.0.0.1', '10.1.2.3');
    expect(response.status, response.body).toBe(200);
    expectAuthenticationFailed(await get('127.0.0.1', '192.168.1.1'), 'proxy forwarding a refused address');
  });

  it('takes the address the proxy saw, not entries the client wrote before it', async () => {
    // The client sent "X-Forwarded-For: 10.1.2.3" itself; the proxy appended the real peer.
    expectAuthenticationFailed(await get('127.0.0.1', '10.1.2.3, 192.168.1.1'), 'spoofed first entry');
    expect((await get('127.0.0.1', '192.168.1.1, 10.1.2.3')).status).toBe(200);
  });

  it('ignores X-Forwarded-For from any other peer', async () => {
    expectAuthenticationFailed(await get('192.168.1.1', '10.1.2.3'), 'header from a peer that is not the proxy');
  });
});
