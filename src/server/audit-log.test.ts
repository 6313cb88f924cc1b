import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPage, type AuditEntry } from '../api/schemas/audit.ts';
import { manualClock } from './lib/clock.ts';
import { createCustomField } from './services/custom-fields.service.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { testClock } from './test/test-clock.ts';

const DAY = 86_400_000;

/**
 * Reading the audit log (extension `audit.list`, issue 26 item 4): newest first, filtered by time,
 * actor, list, object and operation, paged by keyset; and SECURITY.md 49: only with the `audit`
 * permission, only the caller's own account (and lists, for a list-limited administrator), append-
 * only through the API.
 */
describeEachDialect('reading the audit log', (dialect) => {
  const clock = manualClock(testClock().now());
  const start = clock.now().getTime();
  let server: TestServer;
  let other: { id: number; name: string };
  let otherKey: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { clock });
    other = await server.createAccount('elsewhere');
    otherKey = await server.createKey({ accountId: other.id, permissions: ['superadmin'] });
    // Acme: two lists and a contact, a minute apart, by two administrators.
    const clerk = await server.createKey({
      accountId: server.account.id,
      permissions: ['list', 'contact'],
    });
    await write(server.accountKey, 'POST', '/api/2/lists/', { name: 'alpha' });
    clock.advance(60_000);
    await write(clerk, 'POST', '/api/2/lists/', { name: 'beta' });
    clock.advance(60_000);
    await write(server.accountKey, 'PUT', '/api/2/lists/alpha/', { description: 'First list' });
    clock.advance(60_000);
    await write(clerk, 'POST', '/api/2/contacts/', {
      emails: ['reader@example.org'],
      lists: ['alpha', 'beta'],
    });
    clock.advance(60_000);
    // The other account: a list named as one of Acme's.
    await write(otherKey, 'POST', '/api/2/lists/', { name: 'alpha', description: 'Not Acme’s' });
  });
  afterAll(() => server.close());

  async function write(key: string, method: string, url: string, form?: Record<string, unknown>) {
    const answer = await server.request(method, url, { key, form });
    expect(answer.status, answer.body).toBe(200);
    return answer.json as Record<string, unknown>;
  }
  async function read(query: Record<string, unknown> = {}, key = server.accountKey) {
    return server.request('GET', '/api/2/audit/', { key, query });
  }
  async function page(query: Record<string, unknown> = {}, key = server.accountKey) {
    const answer = await read(query, key);
    expect(answer.status, answer.body).toBe(200);
    return AuditPage.parse(answer.json);
  }
  const summary = (entries: AuditEntry[]) =>
    entries.map((entry) => `${entry.operation} ${entry.object.list ?? ''}`.trim());

  describe('filters and pages', () => {
    it('answers newest first, the account’s own entries only', async () => {
      expect(summary((await page()).data)).toEqual([
        'contacts.create',
        'lists.update alpha',
        'lists.create beta',
        'lists.create alpha',
      ]);
    });

    it('filters by time range, inclusive, in any offset', async () => {
      const since = new Date(start + 60_000).toISOString();
      const until = new Date(start + 120_000).toISOString().replace('Z', '+00:00');
      expect(summary((await page({ since, until })).data)).toEqual([
        'lists.update alpha',
        'lists.create beta',
      ]);
      const refused = await read({ since: 'yesterday' });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({
        is_error: true,
        message: expect.stringMatching(/^since: /) as unknown,
      });
    });

    it('filters by actor: a key by its description, any case; the system; nobody', async () => {
      const described = await server.createKey({
        accountId: server.account.id,
        permissions: ['list'],
      });
      await server.database.db
        .updateTable('administrators')
        .set({ description: 'Nightly Sync' })
        .where('id', '=', await idOf(described))
        .execute();
      await write(described, 'PUT', '/api/2/lists/beta/', { notes: 'synced' });
      expect(summary((await page({ actor: 'nightly sync' })).data)).toEqual(['lists.update beta']);
      expect((await page({ actor: 'system' })).data).toEqual([]);
      expect((await page({ actor: 'nobody@example.org' })).data).toEqual([]);
    });

    it('filters by list (its id: the history survives a rename), object and operation', async () => {
      expect(summary((await page({ list: 'alpha' })).data)).toEqual([
        'lists.update alpha',
        'lists.create alpha',
      ]);
      await write(server.accountKey, 'PUT', '/api/2/lists/alpha/', { name: 'alpha-renamed' });
      expect(summary((await page({ list: 'alpha-renamed' })).data)).toEqual([
        'lists.update alpha-renamed',
        'lists.update alpha',
        'lists.create alpha',
      ]);
      const contact = (await page({ operation: 'contacts.create' })).data[0];
      expect(contact?.object.type).toBe('contact');
      const byObject = await page({ object_type: 'contact', object_id: contact?.object.id });
      expect(byObject.data.map((entry) => entry.id)).toEqual([contact?.id]);
      expect((await page({ object_type: 'list', operation: 'lists.create' })).data).toHaveLength(2);
      expect((await read({ object_type: 'planet' })).status).toBe(400);
    });

    it('pages by keyset: `next` continues after the last entry, unchanged by entries written meanwhile', async () => {
      const all = (await page({ limit: 100 })).data;
      const first = await page({ limit: 2 });
      expect(first.data.map((entry) => entry.id)).toEqual(all.slice(0, 2).map((entry) => entry.id));
      expect(first.next).toEqual(expect.any(String));
      // A write between two pages comes before the first page, not into the next one.
      await write(server.accountKey, 'POST', '/api/2/lists/', { name: 'gamma' });
      const seen: unknown[] = [...first.data.map((entry) => entry.id)];
      let next = first.next;
      while (next) {
        const more = await page({ limit: 2, cursor: next });
        seen.push(...more.data.map((entry) => entry.id));
        next = more.next;
      }
      expect(seen).toEqual(all.map((entry) => entry.id));
      const bad = await read({ cursor: 'not-a-cursor' });
      expect(bad.status).toBe(400);
      expect(bad.json).toEqual({
        is_error: true,
        message: expect.stringMatching(/^cursor: /) as unknown,
      });
      expect((await read({ limit: 101 })).status).toBe(400);
      expect((await read({ page: 2 })).status).toBe(400);
    });
  });

  describe('SECURITY.md 49', () => {
    it('is read with the audit permission only (superadmin holds it)', async () => {
      const auditor = await server.createKey({
        accountId: server.account.id,
        permissions: ['audit'],
      });
      expect((await read({}, auditor)).status).toBe(200);
      const clerk = await server.createKey({
        accountId: server.account.id,
        permissions: ['list', 'contact', 'membership', 'messages'],
      });
      const refused = await read({}, clerk);
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ is_error: true, message: expect.any(String) as unknown });
    });

    it("shows an account's administrator its own account's entries only, with or without account_id", async () => {
      const mine = await page({}, otherKey);
      expect(summary(mine.data)).toEqual(['lists.create alpha']);
      expect(JSON.stringify(mine)).not.toContain('reader@example.org');
      // Another account's id is refused, not answered.
      expect((await read({ account_id: server.account.id }, otherKey)).status).toBe(403);
      // Acme's administrator never sees the other account's list of the same name.
      expect(JSON.stringify((await page({ limit: 100 })).data)).not.toContain('Not Acme');
    });

    it("shows a global administrator the account it names, and the group's log without one", async () => {
      expect(summary((await page({ account_id: other.id }, server.globalKey)).data)).toEqual([
        'lists.create alpha',
      ]);
      const group = await page({}, server.globalKey);
      expect(
        group.data.every(
          (entry) => entry.object.type === 'account' || entry.object.type === 'administrator',
        ),
      ).toBe(true);
    });

    it('shows a list-limited administrator the entries of its lists only, by their ids', async () => {
      const limited = await server.createKey({
        accountId: server.account.id,
        permissions: ['audit', 'limit_lists'],
      });
      await server.database.db
        .updateTable('administrators')
        .set({ limit_lists: JSON.stringify(['beta']) })
        .where('id', '=', await idOf(limited))
        .execute();
      server.forgetCachedAuth();
      const seen = await page({ limit: 100 }, limited);
      expect(seen.data.length).toBeGreaterThan(0);
      expect(new Set(seen.data.map((entry) => entry.object.list))).toEqual(new Set(['beta']));
      // Not the contact (no list), not alpha's, even when asked.
      expect((await read({ list: 'alpha-renamed' }, limited)).status).toBe(403);
      // The other account's list of the same name stays out of a limit to `alpha` too.
      await server.database.db
        .updateTable('administrators')
        .set({ limit_lists: JSON.stringify(['gamma']) })
        .where('id', '=', await idOf(limited))
        .execute();
      server.forgetCachedAuth();
      expect(summary((await page({}, limited)).data)).toEqual(['lists.create gamma']);
    });

    it('hides from a metadata-limited administrator the custom fields it is not given', async () => {
      await createCustomField(server.database.db, { accountId: server.account.id, name: 'salary' });
      await createCustomField(server.database.db, { accountId: server.account.id, name: 'team' });
      await write(server.accountKey, 'POST', '/api/2/contacts/', {
        emails: ['paid@example.org'],
        salary: '90000',
        team: 'blue',
      });
      const limited = await server.createKey({
        accountId: server.account.id,
        permissions: ['audit', 'limit_metadata'],
      });
      await server.database.db
        .updateTable('administrators')
        .set({ limit_metadata: JSON.stringify(['team']) })
        .where('id', '=', await idOf(limited))
        .execute();
      server.forgetCachedAuth();
      const [entry] = (await page({ operation: 'contacts.create' }, limited)).data;
      expect(entry?.changes.map((change) => change.field)).toEqual(['emails', 'team']);
      expect(JSON.stringify(entry)).not.toContain('90000');
      const [full] = (await page({ operation: 'contacts.create' })).data;
      expect(full?.changes.map((change) => change.field)).toEqual(['emails', 'salary', 'team']);
    });

    it('is append-only through the API: no method writes it, and deleting what it names keeps its entries', async () => {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const answer = await server.request(method, '/api/2/audit/', { form: { operation: 'x' } });
        expect(answer.status, method).toBe(404);
      }
      const before = (await page({ list: 'beta', limit: 100 })).data.length;
      await write(server.accountKey, 'DELETE', '/api/2/lists/beta/');
      expect((await page({ list: 'beta', limit: 100 })).data.length).toBe(before + 1);
    });
  });

  async function idOf(key: string): Promise<number> {
    const caller = await server.request('GET', '/api/2/caller/', { key });
    return (caller.json as { administrator: { id: number } }).administrator.id;
  }
});

describeEachDialect('audit retention (AUDIT_RETENTION_DAYS)', (dialect) => {
  it("purges on the app's timer the entries older than the retention, by the server's clock", async () => {
    const clock = manualClock(testClock().now());
    const server = await startTestServer(dialect, {
      clock,
      auditRetentionDays: 30,
      auditPurgeIntervalMs: 20,
    });
    try {
      const count = async () =>
        Number(
          (
            await server.database.db
              .selectFrom('audit_entries')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      await server.request('POST', '/api/2/lists/', { form: { name: 'old' } });
      clock.advance(20 * DAY);
      await server.request('POST', '/api/2/lists/', { form: { name: 'young' } });
      expect(await count()).toBe(2);
      // 29 days on: both kept.
      clock.advance(9 * DAY);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await count()).toBe(2);
      // 31 days after the first: it goes at the next tick, the second stays.
      clock.advance(2 * DAY);
      for (let waited = 0; (await count()) > 1 && waited < 5000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const left = AuditPage.parse((await server.request('GET', '/api/2/audit/')).json).data;
      expect(left.map((entry) => entry.object.list)).toEqual(['young']);
    } finally {
      await server.close();
    }
  });

  it('keeps 400 days by default', async () => {
    const clock = manualClock(testClock().now());
    const server = await startTestServer(dialect, { clock, auditPurgeIntervalMs: 20 });
    try {
      await server.request('POST', '/api/2/lists/', { form: { name: 'kept' } });
      clock.advance(399 * DAY);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        (await server.database.db.selectFrom('audit_entries').select('id').execute()).length,
      ).toBe(1);
      clock.advance(2 * DAY);
      let left = 1;
      for (let waited = 0; left > 0 && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        left = (await server.database.db.selectFrom('audit_entries').select('id').execute()).length;
      }
      expect(left).toBe(0);
    } finally {
      await server.close();
    }
  });
});
