import { RE2JS } from 're2js';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ErrorBody } from '../../api/primitives.ts';
import { expectSuccess, urlOf } from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * SECURITY.md 31, issue 16 finding 3: user-supplied regular expressions (spec §2.7
 * `restrict_contact*`, §2.4 taboo rules) run in a linear-time engine, and what it cannot run is
 * refused when saved, on its field.
 */

/** Exponential for a backtracking engine: `RegExp` took 5.4 s on a 30-character address. */
const CATASTROPHIC = String.raw`^([a-z0-9]+\.?)+@corp\.example$`;

describeEachDialect('user-supplied regular expressions (SECURITY.md 31)', (dialect) => {
  let server: TestServer;
  let account: { id: number; name: string };
  let key: string;

  const accountUrl = () => urlOf('accounts.update', String(account.id));
  const setRestriction = (patterns: string[]) =>
    server.request('PUT', accountUrl(), { key: server.globalKey, form: { restrict_contact: patterns } });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    account = await server.createAccount('patterns');
    key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
  });
  afterAll(() => server.close());

  // No clock (CI is loaded): the address is tested by RE2, linear by construction. `RegExp` took
  // 5.4 s on 30 characters and doubles with each further one: on 39 this test would time out.
  it('runs restrict_contact in linear time: a catastrophic pattern tests a 39-character address in RE2', async () => {
    expectSuccess(await setRestriction([CATASTROPHIC]), 'save the restriction');
    const tested = vi.spyOn(RE2JS.prototype, 'test');
    try {
      for (const address of [`${'a'.repeat(25)}@x.co`, `${'a'.repeat(34)}@x.co`]) {
        const refused = await server.request('POST', urlOf('contacts.create'), { key, form: { emails: [address] } });
        expect(refused.status, refused.body).toBe(400);
        expect(ErrorBody.parse(refused.json).message).toMatch(/restrict_contact/);
        expect(tested.mock.calls.map(([text]) => text)).toContain(address);
      }
    } finally {
      tested.mockRestore();
    }
    // The pattern still does its job: an address it matches is accepted, whatever its case.
    expectSuccess(
      await server.request('POST', urlOf('contacts.create'), { key, form: { emails: ['Ada.Lovelace@Corp.Example'] } }),
      'allowed address',
    );
  });

  it('refuses restrict_contact patterns the engine cannot run, naming the field and the reason', async () => {
    for (const [pattern, reason] of [
      [String.raw`^(a)\1@x\.example$`, /backreference/],
      [String.raw`^(?!admin)`, /lookahead or lookbehind/],
    ] as const) {
      const response = await setRestriction(['@corp\\.example$', pattern]);
      expect(response.status, response.body).toBe(400);
      expect(ErrorBody.parse(response.json).message).toMatch(new RegExp(`^restrict_contact\\.1: .*${reason.source}`));
    }
    const subscription = await server.request('PUT', accountUrl(), {
      key: server.globalKey,
      form: { restrict_contact_subscription: ['(?<=x)y'] },
    });
    expect(subscription.status).toBe(400);
    expect(ErrorBody.parse(subscription.json).message).toMatch(/^restrict_contact_subscription\.0: uses lookahead/);
    // Nothing was saved: the catastrophic but runnable pattern of the first test is still the one.
    const detail = await server.request('GET', urlOf('accounts.get', String(account.id)), { key: server.globalKey });
    expect(detail.json).toMatchObject({ restrict_contact: [CATASTROPHIC], restrict_contact_subscription: [] });
  });

  it('refuses taboo rules the engine cannot run, on create and update, naming the field', async () => {
    const created = await server.request('POST', urlOf('lists.create'), {
      key,
      form: { name: 'taboo', taboo_body: ['viagra', String.raw`(\w+) \1`] },
    });
    expect(created.status, created.body).toBe(400);
    expect(ErrorBody.parse(created.json).message).toMatch(/^taboo_body\.1: uses a backreference/);
    expectSuccess(await server.request('POST', urlOf('lists.create'), { key, form: { name: 'taboo' } }), 'create');
    const updated = await server.request('PUT', urlOf('lists.update', 'taboo'), {
      key,
      form: { taboo_headers: ['^Subject: (?=.*win)'] },
    });
    expect(updated.status, updated.body).toBe(400);
    expect(ErrorBody.parse(updated.json).message).toMatch(/^taboo_headers\.0: uses lookahead/);
    expectSuccess(
      await server.request('PUT', urlOf('lists.update', 'taboo'), { key, form: { taboo_headers: ['^X-Spam: yes'] } }),
      'a runnable rule',
    );
  });
});
