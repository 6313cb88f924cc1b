import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Contact, ContactPage } from '../../api/schemas/contact.ts';
import { readPoolOf } from '../db/heavy-reader.ts';
import { manualClock } from '../lib/clock.ts';
import { ALLOWANCE_PER_CONTACT } from '../rate-limit/rate-limiter.ts';
import { databaseSnapshot } from './db-snapshot.ts';
import { expectSuccess, isErrorShape, urlOf } from './fixtures.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './harness.ts';
import { testClock } from './test-clock.ts';

/**
 * Spec §8 and SECURITY.md 20: use is counted in objects returned or affected, per account; the
 * allowance is 3 × the account's maximum address-book size per window; the charge is atomic, so
 * parallel requests never return more than the budget; over budget → 429 with Retry-After and the
 * X-RateLimit-* headers; the window resets.
 */

const CONTACTS = urlOf('contacts.list');
const contactUrl = (id: string | number) => urlOf('contacts.get', String(id));

function header(response: TestResponse, name: string): number {
  const value = response.headers[name];
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new Error(`${name}: expected a whole number, got ${String(value)}`);
  return Number(value);
}

/** A 429 of spec §8 at the server's time `now` (its clock, not the machine's). */
function expectRateLimited(response: TestResponse, allowance: number, now: Date): void {
  expect(response.status, response.body).toBe(429);
  expect(isErrorShape(response.json), response.body).toBe(true);
  const retryAfter = header(response, 'retry-after');
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(header(response, 'x-ratelimit-limit')).toBe(allowance);
  expect(header(response, 'x-ratelimit-remaining')).toBeLessThan(allowance);
  const reset = header(response, 'x-ratelimit-reset');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  expect(reset).toBeGreaterThanOrEqual(nowSeconds);
  expect(reset - nowSeconds).toBeLessThanOrEqual(retryAfter + 1);
}

/** Single reads (each counts 1) until exactly `budget` objects remain in the window. */
async function spendDownTo(
  server: TestServer,
  key: string,
  contactId: string,
  budget: number,
): Promise<void> {
  let remaining = header(
    await server.request('GET', contactUrl(contactId), { key }),
    'x-ratelimit-remaining',
  );
  while (remaining > budget) {
    const next = header(
      await server.request('GET', contactUrl(contactId), { key }),
      'x-ratelimit-remaining',
    );
    expect(next).toBe(remaining - 1);
    remaining = next;
  }
  expect(remaining).toBe(budget);
}

/**
 * Whether the work a charge pays for ran: every statement the app sends its database, on the
 * request's connection (Kysely's executor) or on SQLite's reader threads (db/heavy-reader.ts).
 */
function watchWork(server: TestServer) {
  const onConnection = vi.spyOn(server.database.db.getExecutor(), 'executeQuery');
  const pool = readPoolOf(server.database.db);
  const pages = pool && vi.spyOn(pool, 'run');
  const rows = pool && vi.spyOn(pool, 'rows');
  const sent = () => [
    ...onConnection.mock.calls.map(([query]) => query.sql),
    ...(pages?.mock.calls.map(([job]) => job.page.sql) ?? []),
    ...(rows?.mock.calls.map(([statement]) => statement.sql) ?? []),
  ];
  return {
    /** A search's page of ids: the search tables (SQLite's FTS table, PostgreSQL's trigrams). */
    searched: () => sent().some((text) => text.includes('contact_search')),
    /** A list's member ids, as the database writes them (lists.repository.ts memberRefs). */
    readMemberIds: () => sent().some((text) => /json_group_array|string_agg/.test(text)),
    /** The administrators GET /users/ answers, or their keys' expiry (users.repository.ts). */
    readAdministrators: () =>
      sent().some((text) =>
        /from "administrators" where "account_id" = (\?|\$\d+) order by "id"|max\("expires_at"\)/.test(
          text,
        ),
      ),
    stop: () => {
      onConnection.mockRestore();
      pages?.mockRestore();
      rows?.mockRestore();
    },
  };
}

/** SECURITY.md 20: at most `budget` objects came back; every refusal is a complete 429. */
function expectWithinBudget(
  responses: TestResponse[],
  budget: number,
  allowance: number,
  now: Date,
): void {
  let returned = 0;
  let limited = 0;
  for (const response of responses) {
    if (response.status === 200) returned += ContactPage.parse(response.json).data.length;
    else {
      expectRateLimited(response, allowance, now);
      limited += 1;
    }
  }
  expect(returned).toBeLessThanOrEqual(budget);
  // 20 pages of 10 against a budget of 100: at least half must be refused, and some served.
  expect(limited).toBeGreaterThanOrEqual(responses.length - budget / 10);
  expect(returned).toBeGreaterThan(0);
}

describeEachDialect('rate limit (SECURITY.md 20, spec §8)', (dialect) => {
  describe('the hourly allowance', () => {
    // 40 contacts of address book → an allowance of 120 objects per window.
    const MAX_CONTACTS = 40;
    const ALLOWANCE = ALLOWANCE_PER_CONTACT * MAX_CONTACTS;
    const BUDGET = 100;
    let server: TestServer;
    let key: string;
    const contactIds: string[] = [];

    beforeAll(async () => {
      // A window far longer than the run, so that no clock-hour boundary resets the count mid-test.
      server = await startTestServer(dialect, { rateLimitWindowSeconds: 1_000_000_000 });
      const account = await server.createAccount('metered', { maxContacts: MAX_CONTACTS });
      key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
      for (let i = 0; i < 12; i += 1) {
        const created = await server.request('POST', CONTACTS, {
          key,
          form: { emails: [`person${i}@metered.example`] },
        });
        contactIds.push(String(Contact.parse(expectSuccess(created, 'create contact')).id));
      }
    });
    afterAll(() => server.close());

    it('counts a write as 1, a single object as 1, a page as its objects, and a failed write as 0', async () => {
      const first = await server.request('GET', contactUrl(contactIds[0] ?? ''), { key });
      expect(first.status, first.body).toBe(200);
      expect(header(first, 'x-ratelimit-limit')).toBe(ALLOWANCE);
      const start = header(first, 'x-ratelimit-remaining');
      // The 12 creates and this read: nothing else has been charged.
      expect(start).toBe(ALLOWANCE - 13);

      const write = await server.request('PUT', contactUrl(contactIds[0] ?? ''), {
        key,
        form: { firstname: 'Ada' },
      });
      expect(write.status, write.body).toBe(200);
      expect(header(write, 'x-ratelimit-remaining')).toBe(start - 1);

      const page = await server.request('GET', CONTACTS, { key, query: { limit: 3 } });
      expect(ContactPage.parse(page.json).data).toHaveLength(3);
      expect(header(page, 'x-ratelimit-remaining')).toBe(start - 4);

      // A write that affects nothing (an unknown contact) is not charged.
      const missing = await server.request('PUT', contactUrl(999_999_999), {
        key,
        form: { firstname: 'Nobody' },
      });
      expect(missing.status, missing.body).toBe(404);
      const after = await server.request('GET', contactUrl(contactIds[0] ?? ''), { key });
      expect(header(after, 'x-ratelimit-remaining')).toBe(start - 5);
    });

    it('returns at most the budget to 20 parallel page requests, and 429s the rest', async () => {
      await spendDownTo(server, key, contactIds[1] ?? '', BUDGET);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          server.request('GET', CONTACTS, { key, query: { limit: 10 } }),
        ),
      );
      expectWithinBudget(responses, BUDGET, ALLOWANCE, server.clock.now());
    });

    // DESIGN.md: several server processes may share one PostgreSQL; the counter lives there.
    it.skipIf(dialect !== 'postgres')(
      'holds the budget across two server processes sharing PostgreSQL',
      async () => {
        const account = await server.createAccount('shared', { maxContacts: MAX_CONTACTS });
        const sharedKey = await server.createKey({
          accountId: account.id,
          permissions: ['superadmin'],
        });
        let firstId = '';
        for (let i = 0; i < 12; i += 1) {
          const created = await server.request('POST', CONTACTS, {
            key: sharedKey,
            form: { emails: [`p${i}@shared.example`] },
          });
          firstId ||= String(Contact.parse(expectSuccess(created, 'create contact')).id);
        }
        await spendDownTo(server, sharedKey, firstId, BUDGET);
        const peer = await server.startPeer();
        const viaPeer = async (): Promise<TestResponse> => {
          const response = await peer.inject({
            method: 'GET',
            url: `${CONTACTS}?limit=10`,
            headers: { authorization: `Bearer ${sharedKey}` },
          });
          return {
            status: response.statusCode,
            headers: response.headers,
            body: response.body,
            json: JSON.parse(response.body) as unknown,
          };
        };
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            i % 2 === 0
              ? server.request('GET', CONTACTS, { key: sharedKey, query: { limit: 10 } })
              : viaPeer(),
          ),
        );
        expectWithinBudget(responses, BUDGET, ALLOWANCE, server.clock.now());
      },
    );

    it('refuses single reads and writes once the allowance is spent, and changes nothing', async () => {
      // Spend whatever the burst left.
      for (let i = 0; i < BUDGET; i += 1) {
        if ((await server.request('GET', contactUrl(contactIds[2] ?? ''), { key })).status === 429)
          break;
      }
      expectRateLimited(
        await server.request('GET', contactUrl(contactIds[2] ?? ''), { key }),
        ALLOWANCE,
        server.clock.now(),
      );
      const before = await databaseSnapshot(server.database.db);
      const write = await server.request('POST', CONTACTS, {
        key,
        form: { emails: ['late@metered.example'] },
      });
      expectRateLimited(write, ALLOWANCE, server.clock.now());
      expect(await databaseSnapshot(server.database.db)).toBe(before);
    });

    it('counts per account: another account is not limited', async () => {
      const other = await server.request('GET', CONTACTS, { key: server.accountKey });
      expect(other.status, other.body).toBe(200);
    });
  });

  describe('the cost, checked before the work (SECURITY.md 30)', () => {
    // 10 contacts of address book → an allowance of 30 objects per window.
    const ALLOWANCE_30 = ALLOWANCE_PER_CONTACT * 10;
    let server: TestServer;
    let key: string;
    let contactId = '';
    const members = 5;

    const remaining = async (method: string, url: string, query?: Record<string, unknown>) => {
      const response = await server.request(method, url, { key, ...(query ? { query } : {}) });
      expect(response.status, response.body.slice(0, 200)).toBe(200);
      return header(response, 'x-ratelimit-remaining');
    };

    beforeAll(async () => {
      server = await startTestServer(dialect, { rateLimitWindowSeconds: 1_000_000_000 });
      const account = await server.createAccount('costly', { maxContacts: 10 });
      key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
      expectSuccess(
        await server.request('POST', urlOf('lists.create'), { key, form: { name: 'members' } }),
        'list',
      );
      for (let i = 0; i < members; i += 1) {
        const created = await server.request('POST', CONTACTS, {
          key,
          form: { emails: [`m${i}@costly.example`], lists: ['members'] },
        });
        contactId = String(Contact.parse(expectSuccess(created, 'member')).id);
      }
    });
    afterAll(() => server.close());

    // Issue 16 finding 2: 190,043 member ids were charged as 4 objects.
    it('charges the member ids a list returns, on GET /lists/ and GET /lists/:name/', async () => {
      const start = await remaining('GET', contactUrl(contactId));
      const afterList = await remaining('GET', urlOf('lists.list'));
      expect(start - afterList).toBe(1 + members);
      const afterOne = await remaining('GET', urlOf('lists.get', 'members'));
      expect(afterList - afterOne).toBe(1 + members);
    });

    // Issue 16 finding 2 with issue 17 item 1: a page that shows only how many members a list has
    // asks for the count (the `contacts=count` extension) and pays for the lists it is returned.
    it('charges a list whose member ids are left out (contacts=count) as one object', async () => {
      const start = await remaining('GET', contactUrl(contactId));
      const list = await server.request('GET', urlOf('lists.list'), {
        key,
        query: { contacts: 'count' },
      });
      expect(list.status, list.body).toBe(200);
      expect(list.json).toEqual({
        data: [expect.objectContaining({ name: 'members', contacts: [], contacts_count: members })],
      });
      expect(start - header(list, 'x-ratelimit-remaining')).toBe(1);
      const one = await server.request('GET', urlOf('lists.get', 'members'), {
        key,
        query: { contacts: 'count' },
      });
      expect(one.json).toMatchObject({ name: 'members', contacts: [], contacts_count: members });
      expect(header(list, 'x-ratelimit-remaining') - header(one, 'x-ratelimit-remaining')).toBe(1);
      // Anything else is refused, as any value outside the contract.
      const other = await server.request('GET', urlOf('lists.get', 'members'), {
        key,
        query: { contacts: 'all' },
      });
      expect(other.status, other.body).toBe(400);
      expect(other.json).toEqual({
        is_error: true,
        message: expect.stringMatching(/^contacts: /) as unknown,
      });
    });

    // Issue 16 finding 1: a search that found nothing was free, and ran with the allowance spent.
    it('charges a query that finds nothing as one, and runs none with the allowance spent', async () => {
      const start = await remaining('GET', contactUrl(contactId));
      const afterEmpty = await remaining('GET', CONTACTS, { search: 'nobody-is-called-this' });
      expect(start - afterEmpty).toBe(1);
      await spendDownTo(server, key, contactId, 0);
      expectRateLimited(
        await server.request('GET', CONTACTS, { key, query: { search: 'nobody-is-called-this' } }),
        ALLOWANCE_30,
        server.clock.now(),
      );
      expectRateLimited(
        await server.request('GET', CONTACTS, { key, query: { email: 'none@costly.example' } }),
        ALLOWANCE_30,
        server.clock.now(),
      );
      expectRateLimited(
        await server.request('GET', urlOf('lists.list'), { key }),
        ALLOWANCE_30,
        server.clock.now(),
      );
    });
  });

  // SECURITY.md 30: a page of 1000 or a list's ids were read in full, then answered 429.
  describe('the upper bound, reserved before the work and settled after it (SECURITY.md 30)', () => {
    // 20 contacts of address book → an allowance of 60 objects per window; 12 contacts.
    const ALLOWANCE_60 = ALLOWANCE_PER_CONTACT * 20;
    let server: TestServer;
    let key: string;
    let contactId = '';
    const PEOPLE = 12;

    const remaining = (response: TestResponse) => header(response, 'x-ratelimit-remaining');
    const single = async () =>
      remaining(await server.request('GET', contactUrl(contactId), { key }));

    beforeAll(async () => {
      server = await startTestServer(dialect, { rateLimitWindowSeconds: 1_000_000_000 });
      const account = await server.createAccount('bounded', { maxContacts: 20 });
      key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
      expectSuccess(
        await server.request('POST', urlOf('lists.create'), { key, form: { name: 'all' } }),
        'list',
      );
      for (let i = 0; i < PEOPLE; i += 1) {
        const firstname = `Pat${String(i).padStart(2, '0')}`;
        const created = await server.request('POST', CONTACTS, {
          key,
          form: { firstname, emails: [`p${i}@bounded.example`], lists: ['all'] },
        });
        contactId = String(Contact.parse(expectSuccess(created, 'contact')).id);
      }
      // 7 administrators with the key's own.
      for (let i = 0; i < 6; i += 1)
        await server.createKey({ accountId: account.id, permissions: ['list'] });
    });
    afterAll(() => server.close());

    it('gives back exactly what a page of 1000 reserved and did not return', async () => {
      const start = await single();
      const work = watchWork(server);
      // Reserves min(1000, the 12 contacts), returns Pat10 and Pat11.
      const page = await server.request('GET', CONTACTS, {
        key,
        query: { search: 'pat1', limit: 1000 },
      });
      expect(ContactPage.parse(page.json).count).toBe(2);
      expect(work.searched()).toBe(true);
      expect(remaining(page)).toBe(start - 2);
      expect(await single()).toBe(start - 3);
      const lists = await server.request('GET', urlOf('lists.list'), { key });
      expect(work.readMemberIds()).toBe(true);
      expect(remaining(lists)).toBe(start - 3 - (1 + PEOPLE));
      work.stop();
    });

    // SECURITY.md 30: a list update answered every member id for one object.
    it('charges a list update the member ids it answers, or one object with contacts=count', async () => {
      const start = await single();
      const updated = await server.request('PUT', urlOf('lists.update', 'all'), {
        key,
        form: { description: 'Ids' },
      });
      expect(updated.status, updated.body).toBe(200);
      expect((updated.json as { contacts: unknown[] }).contacts).toHaveLength(PEOPLE);
      expect(start - remaining(updated)).toBe(1 + PEOPLE);
      const counted = await server.request('PUT', urlOf('lists.update', 'all'), {
        key,
        query: { contacts: 'count' },
        form: { description: 'Counted' },
      });
      expect(counted.status, counted.body).toBe(200);
      expect(counted.json).toMatchObject({
        name: 'all',
        description: 'Counted',
        contacts: [],
        contacts_count: PEOPLE,
      });
      expect(remaining(updated) - remaining(counted)).toBe(1);
    });

    it('refuses a page or a list whose upper bound exceeds what is left, before reading it', async () => {
      await spendDownTo(server, key, contactId, 5);
      const before = await databaseSnapshot(server.database.db);
      const work = watchWork(server);
      const refused = [
        await server.request('GET', CONTACTS, { key, query: { search: 'pat', limit: 1000 } }),
        await server.request('GET', urlOf('lists.list'), { key }),
        await server.request('GET', urlOf('lists.get', 'all'), { key }),
        await server.request('GET', urlOf('users.list'), { key }),
        await server.request('PUT', urlOf('lists.update', 'all'), {
          key,
          form: { description: 'Too dear' },
        }),
      ];
      for (const response of refused) {
        expectRateLimited(response, ALLOWANCE_60, server.clock.now());
        // The one object each took before its work is given back, and the header says so.
        expect(header(response, 'x-ratelimit-remaining')).toBe(5);
      }
      // What was counted to know the cost ran; the reads it would have paid for did not.
      expect(work.searched()).toBe(false);
      expect(work.readMemberIds()).toBe(false);
      expect(work.readAdministrators()).toBe(false);
      work.stop();
      // The update refused for its member ids wrote nothing.
      expect(await databaseSnapshot(server.database.db)).toBe(before);
      // Nothing was kept of what the refused requests reserved: this read is the first since.
      expect(await single()).toBe(4);
    });
  });

  // Issue 16 finding 6: group-wide calls (spec §4.7, §4.8 rule 2) were never limited.
  describe('group-wide calls', () => {
    const GROUP = 6;
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(dialect, {
        rateLimitWindowSeconds: 1_000_000_000,
        groupRateLimit: GROUP,
      });
    });
    afterAll(() => server.close());

    it('charges /accounts/ and the global /users/ to the group allowance, with headers and 429', async () => {
      const accounts = await server.request('GET', urlOf('accounts.list'), {
        key: server.globalKey,
      });
      expect(accounts.status, accounts.body).toBe(200);
      expect(header(accounts, 'x-ratelimit-limit')).toBe(GROUP);
      const returned = (accounts.json as unknown[]).length;
      expect(header(accounts, 'x-ratelimit-remaining')).toBe(GROUP - returned);
      let refused: TestResponse | undefined;
      for (let i = 0; i < GROUP && !refused; i += 1) {
        const response = await server.request(
          'GET',
          urlOf('accounts.get', String(server.account.id)),
          { key: server.globalKey },
        );
        if (response.status === 429) refused = response;
      }
      if (!refused)
        throw new Error(`GET /accounts/:id/ never rate-limited with a group allowance of ${GROUP}`);
      expectRateLimited(refused, GROUP, server.clock.now());
      expectRateLimited(
        await server.request('GET', urlOf('users.list'), { key: server.globalKey }),
        GROUP,
        server.clock.now(),
      );
      expectRateLimited(
        await server.request('POST', urlOf('accounts.create'), {
          key: server.globalKey,
          form: { name: 'late' },
        }),
        GROUP,
        server.clock.now(),
      );
      // An account's own budget is its own.
      const own = await server.request('GET', CONTACTS, { key: server.accountKey });
      expect(own.status, own.body).toBe(200);
    });
  });

  describe('the window', () => {
    // The window is read from the server's clock, which the test moves: no real second passes.
    const clock = manualClock(testClock().now());
    let server: TestServer;
    let key: string;
    let contactId: string;

    beforeAll(async () => {
      server = await startTestServer(dialect, { rateLimitWindowSeconds: 2, clock });
      const account = await server.createAccount('tiny', { maxContacts: 1 });
      key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
      const created = await server.request('POST', CONTACTS, {
        key,
        form: { emails: ['only@tiny.example'] },
      });
      contactId = String(Contact.parse(expectSuccess(created, 'create contact')).id);
    });
    afterAll(() => server.close());

    it('starts again when RATE_LIMIT_WINDOW_SECONDS have passed', async () => {
      let refused: TestResponse | undefined;
      // An allowance of 3: the fourth read in the window is refused.
      for (let i = 0; i < 4 && !refused; i += 1) {
        const response = await server.request('GET', contactUrl(contactId), { key });
        if (response.status === 429) refused = response;
        else expect(response.status, response.body).toBe(200);
      }
      if (!refused) throw new Error('never rate-limited with an allowance of 3');
      expectRateLimited(refused, 3, server.clock.now());
      const resetAt = header(refused, 'x-ratelimit-reset');
      expect(header(refused, 'retry-after')).toBeLessThanOrEqual(2);
      clock.set(new Date(resetAt * 1000 - 1));
      expect((await server.request('GET', contactUrl(contactId), { key })).status).toBe(429);
      clock.set(new Date(resetAt * 1000));
      const again = await server.request('GET', contactUrl(contactId), { key });
      expect(again.status, again.body).toBe(200);
      expect(header(again, 'x-ratelimit-remaining')).toBe(2);
    });
  });
});
