import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Permission } from '../../api/constants.ts';
import { createApiKeyAdministrator } from '../services/provisioning.service.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './harness.ts';

/**
 * SECURITY.md 32 (issue 16 finding 10): an account always keeps a superadmin; a key cannot make or
 * take over an administrator with more than it has (expiry, lists, permissions), itself included.
 */
const messageOf = (response: TestResponse) => (response.json as { message: string }).message;
const idOf = (response: TestResponse) => (response.json as { id: number }).id;

describeEachDialect('What a key can make of administrators', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function keyOf(
    accountId: number | null,
    permissions: Permission[],
    options: { expiryMonths?: number } = {},
  ): Promise<{ key: string; id: number; expiresAt: string | null }> {
    const created = await createApiKeyAdministrator(server.database.db, {
      accountId,
      permissions,
      ...options,
      now: server.clock.now(),
    });
    return { key: created.key, id: created.administrator.id, expiresAt: created.expires_at };
  }

  it('keeps the last superadmin of an account: no delete, no demotion; with a second one, both work', async () => {
    const solo = await server.createAccount('solo');
    const only = await keyOf(solo.id, ['superadmin']);
    const other = await keyOf(solo.id, ['contact']);
    const asGlobal = { key: server.globalKey, query: { account_id: solo.id } };

    const demoted = await server.request('PUT', `/api/2/users/${only.id}/`, {
      ...asGlobal,
      form: { permissions: ['contact'] },
    });
    expect(demoted.status).toBe(400);
    expect(messageOf(demoted)).toMatch(
      /^permissions: an account must keep at least one superadmin/,
    );
    expect((await server.request('DELETE', `/api/2/users/${only.id}/`, asGlobal)).status).toBe(400);
    // Nor through its own key: it cannot delete itself, and cannot demote itself either.
    expect(
      (
        await server.request('PUT', `/api/2/users/${only.id}/`, {
          key: only.key,
          form: { permissions: ['contact'] },
        })
      ).status,
    ).toBe(400);

    expect(
      (
        await server.request('PUT', `/api/2/users/${other.id}/`, {
          ...asGlobal,
          form: { permissions: ['superadmin'] },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.request('PUT', `/api/2/users/${only.id}/`, {
          ...asGlobal,
          form: { permissions: ['contact'] },
        })
      ).status,
    ).toBe(200);
    expect((await server.request('DELETE', `/api/2/users/${only.id}/`, asGlobal)).status).toBe(200);
    // Administrators without superadmin come and go as before.
    const plain = await keyOf(solo.id, ['contact']);
    expect((await server.request('DELETE', `/api/2/users/${plain.id}/`, asGlobal)).status).toBe(
      200,
    );
  });

  it('two superadmins demoted at the same moment: one change wins, the account keeps a superadmin', async () => {
    // PostgreSQL runs the two transactions side by side (READ COMMITTED): without a lock on the
    // account's administrators each sees the other still superadmin and both commit.
    for (let round = 0; round < 5; round += 1) {
      const pair = await server.createAccount(`pair-${round}`);
      const first = await keyOf(pair.id, ['superadmin']);
      const second = await keyOf(pair.id, ['superadmin']);
      const asGlobal = { key: server.globalKey, query: { account_id: pair.id } };
      const answers = await Promise.all(
        [first, second].map((admin) =>
          server.request('PUT', `/api/2/users/${admin.id}/`, {
            ...asGlobal,
            form: { permissions: ['contact'] },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      const listed = await server.request('GET', '/api/2/users/', asGlobal);
      const superadmins = (listed.json as { data: { permissions: string[] }[] }).data.filter(
        (user) => user.permissions.includes('superadmin'),
      );
      expect(superadmins).toHaveLength(1);
    }
  });

  it('a key that expires retrieves keys that expire no later, and gives no password', async () => {
    const expiring = await keyOf(server.account.id, ['superadmin'], { expiryMonths: 1 });
    const target = await keyOf(server.account.id, ['contact']);
    expect(expiring.expiresAt).not.toBeNull();

    const forever = await server.request('PUT', `/api/2/users/${target.id}/`, {
      key: expiring.key,
      form: { get_key: true },
    });
    expect(forever.status).toBe(200);
    expect((forever.json as { expiry: string }).expiry).toBe(expiring.expiresAt);
    const longer = await server.request('PUT', `/api/2/users/${target.id}/`, {
      key: expiring.key,
      form: { get_key: true, expiry_months: 12 },
    });
    expect((longer.json as { expiry: string }).expiry).toBe(expiring.expiresAt);
    // Shorter than its own stays as asked (the 1-month key was made a moment earlier).
    const unexpired = await keyOf(server.account.id, ['superadmin'], { expiryMonths: 12 });
    const shorter = await server.request('PUT', `/api/2/users/${target.id}/`, {
      key: unexpired.key,
      form: { get_key: true, expiry_months: 1 },
    });
    expect(Date.parse((shorter.json as { expiry: string }).expiry)).toBeLessThan(
      Date.parse(unexpired.expiresAt ?? ''),
    );

    const person = await server.request('POST', '/api/2/users/', {
      key: expiring.key,
      form: { username: 'forever@bounds.example', password: 'a long enough password' },
    });
    expect(person.status).toBe(403);
    expect(messageOf(person)).toMatch(/^password: /);
    // A key that never expires may.
    const allowed = await server.request('POST', '/api/2/users/', {
      form: { username: 'forever@bounds.example', password: 'a long enough password' },
    });
    expect(allowed.status).toBe(200);
    expect(
      (
        await server.request('PUT', `/api/2/users/${idOf(allowed)}/`, {
          key: expiring.key,
          form: { password: 'another long password' },
        })
      ).status,
    ).toBe(403);
  });

  it('a global key that is not superadmin creates accounts, but no superadmin in them', async () => {
    const accountsOnly = await keyOf(null, ['account']);
    const withAdministrator = await server.request('POST', '/api/2/accounts/', {
      key: accountsOnly.key,
      form: { name: 'made-by-account-key', administrator: 'owner@made.example' },
    });
    expect(withAdministrator.status).toBe(403);
    expect(messageOf(withAdministrator)).toMatch(/^permissions: this key cannot give superadmin/);
    // Nothing half-written: the account was not created either.
    const listed = await server.request('GET', '/api/2/accounts/', { key: accountsOnly.key });
    expect((listed.json as { name: string }[]).map((account) => account.name)).not.toContain(
      'made-by-account-key',
    );
    const bare = await server.request('POST', '/api/2/accounts/', {
      key: accountsOnly.key,
      form: { name: 'made-by-account-key' },
    });
    expect(bare.status).toBe(200);
    // A global superadmin with the account permission may name the first administrator.
    const both = await keyOf(null, ['superadmin', 'account']);
    const owned = await server.request('POST', '/api/2/accounts/', {
      key: both.key,
      form: { name: 'made-with-owner', administrator: 'owner@made.example' },
    });
    expect(owned.status).toBe(200);
  });

  it('a global superadmin without the account permission cannot give it', async () => {
    const global = await keyOf(null, ['superadmin']);
    const made = await server.request('POST', '/api/2/users/', {
      key: global.key,
      form: { username: 'groupwide@bounds.example', permissions: ['superadmin', 'account'] },
    });
    expect(made.status).toBe(403);
    expect(messageOf(made)).toMatch(/^permissions: .*account/);
    const fine = await server.request('POST', '/api/2/users/', {
      key: global.key,
      form: { username: 'groupwide@bounds.example', permissions: ['superadmin'] },
    });
    expect(fine.status).toBe(200);
  });

  it('a list-limited superadmin cannot lift its own limit, nor make or take over anyone less limited', async () => {
    for (const name of ['news', 'sports', 'secret']) {
      expect(
        (await server.request('POST', '/api/2/lists/', { form: { name, description: name } }))
          .status,
      ).toBe(200);
    }
    const limited = await keyOf(server.account.id, ['superadmin', 'limit_lists']);
    expect(
      (
        await server.request('PUT', `/api/2/users/${limited.id}/`, {
          form: { limit_lists: ['news', 'sports'] },
        })
      ).status,
    ).toBe(200);
    const as = { key: limited.key };

    const lifted = await server.request('PUT', `/api/2/users/${limited.id}/`, {
      ...as,
      form: { permissions: ['superadmin'] },
    });
    expect(lifted.status).toBe(403);
    expect(messageOf(lifted)).toMatch(/^limit_lists: /);
    expect(
      (
        await server.request('PUT', `/api/2/users/${limited.id}/`, {
          ...as,
          form: { limit_lists: ['news', 'secret'] },
        })
      ).status,
    ).toBe(403);
    // Narrowing itself is fine.
    expect(
      (
        await server.request('PUT', `/api/2/users/${limited.id}/`, {
          ...as,
          form: { limit_lists: ['news'] },
        })
      ).status,
    ).toBe(200);

    const unlimited = await server.request('POST', '/api/2/users/', {
      ...as,
      form: { username: 'wide@bounds.example', permissions: ['superadmin'] },
    });
    expect(unlimited.status).toBe(403);
    const within = await server.request('POST', '/api/2/users/', {
      ...as,
      form: {
        username: 'narrow@bounds.example',
        permissions: ['contact', 'limit_lists'],
        limit_lists: ['news'],
      },
    });
    expect(within.status).toBe(200);

    // An unlimited administrator is out of its reach: no new password, no key, no deletion.
    const wide = await keyOf(server.account.id, ['contact']);
    expect(
      (await server.request('PUT', `/api/2/users/${wide.id}/`, { ...as, form: { get_key: true } }))
        .status,
    ).toBe(403);
    expect((await server.request('DELETE', `/api/2/users/${wide.id}/`, as)).status).toBe(403);
    expect(
      (
        await server.request('PUT', `/api/2/users/${idOf(within)}/`, {
          ...as,
          form: { firstname: 'Narrow' },
        })
      ).status,
    ).toBe(200);
  });
});
