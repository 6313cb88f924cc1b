import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ErrorBody } from '../api/primitives.ts';
import { Account, ACCOUNT_DETAIL_FIELDS, AccountDetail } from '../api/schemas/account.ts';
import { Administrator, RetrievedKey } from '../api/schemas/administrator.ts';
import { ACCOUNT_DEFAULTS, type AccountSettings } from './repositories/accounts.mapper.ts';
import { DEFAULT_MAX_CONTACTS } from './services/provisioning.service.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './test/harness.ts';

/** Answers read through the contract's schemas: typed, and checked once more. */
const asDetail = (response: TestResponse) => AccountDetail.parse(response.json);
const asAccounts = (response: TestResponse) => z.array(Account).parse(response.json);
const asAdmins = (response: TestResponse) =>
  z.strictObject({ data: z.array(Administrator) }).parse(response.json).data;
const asError = (response: TestResponse) => ErrorBody.parse(response.json);
const names = (response: TestResponse) => asAccounts(response).map((a) => a.name);
const ANY_NUMBER: unknown = expect.any(Number);

/** Every §2.7 additional field with a value other than its default. */
const DETAILS: AccountSettings = {
  confirmation_message: 'Please confirm your address',
  confirmation_subject: 'Confirm',
  welcome_message: 'Welcome!',
  send_welcome_message_confirmation: true,
  send_welcome_message_contacts: true,
  timezone: 'Europe/Paris',
  custom_image: 'https://example.org/banner.png',
  notify_approval: 3,
  subscriptions: 'open+confirm',
  unsubscriptions: 'closed',
  list_delegation: true,
  restrict_contact: ['@example\\.org$', '@example\\.net$'],
  restrict_contact_subscription: ['@example\\.org$'],
  require_list_approval: true,
};

const OTHER_DETAILS: AccountSettings = {
  confirmation_message: '',
  confirmation_subject: 'Again',
  welcome_message: '',
  send_welcome_message_confirmation: false,
  send_welcome_message_contacts: false,
  timezone: 'America/New_York',
  custom_image: '',
  notify_approval: 0,
  subscriptions: 'closed',
  unsubscriptions: 'open+confirm',
  list_delegation: false,
  restrict_contact: [],
  restrict_contact_subscription: ['.*'],
  require_list_approval: false,
};

describeEachDialect('accounts (spec §2.7, §4.7)', (dialect) => {
  let server: TestServer;
  const url = (id: string | number = '') => `/api/2/accounts/${id === '' ? '' : `${String(id)}/`}`;
  const asGlobal = (
    method: string,
    path: string,
    options: { form?: Record<string, unknown>; query?: Record<string, unknown> } = {},
  ) => server.request(method, path, { key: server.globalKey, ...options });
  const createAccount = async (form: Record<string, unknown>) => {
    const response = await asGlobal('POST', url(), { form });
    expect(response.status, response.body).toBe(200);
    return asDetail(response);
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  describe('who may', () => {
    it('refuses account keys, even superadmin ones, on the group’s accounts: list, create, delete, another account', async () => {
      const other = await createAccount({ name: 'not-theirs' });
      for (const [method, path] of [
        ['GET', url()],
        ['POST', url()],
        ['DELETE', url(server.account.id)],
        ['GET', url(other.id)],
        ['PUT', url(other.id)],
        ['DELETE', url(other.id)],
      ] as const) {
        const response = await server.request(
          method,
          path,
          method === 'POST' || method === 'PUT' ? { form: { name: 'x' } } : {},
        );
        expect(response.status, `${method} ${path}`).toBe(403);
      }
      expect((await asGlobal('GET', url(server.account.id))).status).toBe(200);
      expect((await asGlobal('GET', url(other.id))).json).toEqual(other);
    });

    it('needs the account permission on the global key', async () => {
      const globalSuperadmin = await server.createKey({
        accountId: null,
        permissions: ['superadmin'],
      });
      expect((await server.request('GET', url(), { key: globalSuperadmin })).status).toBe(200);
      const globalLists = await server.createKey({ accountId: null, permissions: ['list'] });
      expect((await server.request('GET', url(), { key: globalLists })).status).toBe(403);
    });
  });

  // Extension (api/operations.ts OWN_ACCOUNT, issue 27 item 5): spec §2.6 general_settings,
  // "Manage general account settings", on the account's own §2.7 settings.
  describe('an account’s own settings, by its superadmin or a holder of general_settings', () => {
    const asKey = (
      key: string,
      method: string,
      path: string,
      options: { form?: Record<string, unknown>; query?: Record<string, unknown> } = {},
    ) => server.request(method, path, { key, ...options });
    const ownAccount = async (name: string) => {
      const account = await createAccount({ name, description: 'Given by the operator' });
      const settings = await server.createKey({
        accountId: Number(account.id),
        permissions: ['general_settings'],
      });
      const superadmin = await server.createKey({
        accountId: Number(account.id),
        permissions: ['superadmin'],
      });
      return { account, settings, superadmin };
    };

    it('reads its own account as an operator does, and changes its settings and description', async () => {
      const { account, settings, superadmin } = await ownAccount('own-settings');
      for (const key of [settings, superadmin]) {
        const read = await asKey(key, 'GET', url(account.id));
        expect(read.status, read.body).toBe(200);
        expect(read.json).toEqual(account);
        // account_id naming its own account changes nothing (spec §4.8 is for global keys).
        const named = await asKey(key, 'GET', url(account.id), {
          query: { account_id: account.id },
        });
        expect(named.json).toEqual(account);
      }
      const saved = await asKey(settings, 'PUT', url(account.id), {
        form: { description: 'Our own words', ...DETAILS },
      });
      expect(saved.status, saved.body).toBe(200);
      const expected = { ...account, description: 'Our own words', ...DETAILS };
      expect(saved.json).toEqual(expected);
      expect((await asGlobal('GET', url(account.id))).json).toEqual(expected);
      // The account sent back as read, name and plan unchanged, is no change of them.
      const again = await asKey(superadmin, 'PUT', url(account.id), {
        form: { ...expected, timezone: 'UTC' },
      });
      expect(again.status, again.body).toBe(200);
      expect(again.json).toEqual({ ...expected, timezone: 'UTC' });
    });

    it('leaves its name and plan to the operators, and refuses a key without general_settings, changing nothing', async () => {
      const { account, settings, superadmin } = await ownAccount('own-limits');
      for (const form of [
        { name: 'renamed-by-itself' },
        { max_contacts: 10_000_000 },
        { ccid: true },
        { name: 'renamed-by-itself', timezone: 'Asia/Tokyo' },
      ]) {
        for (const key of [settings, superadmin]) {
          const refused = await asKey(key, 'PUT', url(account.id), { form });
          expect(refused.status, JSON.stringify(form)).toBe(403);
          const field = Object.keys(form)[0] ?? '';
          expect(asError(refused).message).toMatch(
            new RegExp(`^${field}: changed by an operator of the group`),
          );
        }
      }
      const others = await server.createKey({
        accountId: Number(account.id),
        permissions: [
          'list',
          'list_settings',
          'contact',
          'membership',
          'approval',
          'messages',
          'audit',
          'billing',
          'alias',
          'account',
        ],
      });
      for (const [method, form] of [
        ['GET', undefined],
        ['PUT', { timezone: 'Asia/Tokyo' }],
      ] as const) {
        const refused = await asKey(others, method, url(account.id), form ? { form } : {});
        expect(refused.status, `${method} ${refused.body}`).toBe(403);
        expect(asError(refused).message).toBe('This key lacks the general_settings permission');
      }
      expect((await asGlobal('GET', url(account.id))).json).toEqual(account);
    });

    it('reaches no other account: any other id, taken or not, is the same 403, and account_id of another too', async () => {
      const { account, settings } = await ownAccount('own-only');
      const other = await createAccount({ name: 'own-neighbour' });
      const refusal = {
        is_error: true,
        message: 'Accounts are managed with a global key: this key reaches its own account only',
      };
      for (const id of [other.id, server.account.id, 999_999, 'abc']) {
        const read = await asKey(settings, 'GET', url(id));
        expect([read.status, read.json], `GET ${id}`).toEqual([403, refusal]);
        const write = await asKey(settings, 'PUT', url(id), {
          form: { description: 'taken over' },
        });
        expect([write.status, write.json], `PUT ${id}`).toEqual([403, refusal]);
      }
      const viaAccountId = await asKey(settings, 'GET', url(other.id), {
        query: { account_id: other.id },
      });
      expect(viaAccountId.status).toBe(403);
      expect((await asGlobal('GET', url(other.id))).json).toEqual(other);
      expect((await asGlobal('GET', url(account.id))).json).toEqual(account);
    });

    it('counts against the account’s own hourly allowance (spec §8), not the group’s', async () => {
      const small = await createAccount({ name: 'own-allowance', max_contacts: 10 });
      const key = await server.createKey({ accountId: Number(small.id), permissions: ['general_settings'] });
      const first = await asKey(key, 'GET', url(small.id));
      const second = await asKey(key, 'GET', url(small.id));
      // Spec §8 rule 2: three objects an hour per contact of the plan.
      expect([first.headers['x-ratelimit-limit'], second.headers['x-ratelimit-limit']]).toEqual(['30', '30']);
      expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    });
  });

  describe('create and read', () => {
    it('creates an account from its name alone, with the documented defaults', async () => {
      const response = await asGlobal('POST', url(), { form: { name: 'bare' } });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({
        id: ANY_NUMBER,
        name: 'bare',
        description: '',
        lists: [],
        users: [],
        ...ACCOUNT_DEFAULTS,
        max_contacts: DEFAULT_MAX_CONTACTS,
        ccid: false,
      });
      expect((await asGlobal('GET', url(asDetail(response).id))).json).toEqual(response.json);
    });

    it('round-trips every §2.7 field, with description, domain, the initial administrator and the plan', async () => {
      expect(Object.keys(DETAILS).sort()).toEqual([...ACCOUNT_DETAIL_FIELDS].sort());
      const created = await createAccount({
        name: 'full-account',
        description: 'Everything set',
        domain: 'lists.example.org',
        administrator: 'owner@example.org',
        max_contacts: 2500,
        ccid: true,
        ...DETAILS,
      });
      expect(created).toEqual({
        id: ANY_NUMBER,
        name: 'full-account',
        description: 'Everything set',
        lists: [],
        users: [{ id: ANY_NUMBER, username: 'owner@example.org' }],
        ...DETAILS,
        max_contacts: 2500,
        ccid: true,
      });
      expect((await asGlobal('GET', url(created.id))).json).toEqual(created);
      const row = await server.database.db
        .selectFrom('accounts')
        .select('domain')
        .where('id', '=', Number(created.id))
        .executeTakeFirstOrThrow();
      expect(row.domain).toBe('lists.example.org');
    });

    it('makes the initial administrator a superadmin person of the new account', async () => {
      const account = await createAccount({
        name: 'with-owner',
        administrator: 'boss@example.org',
      });
      const users = await asGlobal('GET', `/api/2/users/?account_id=${account.id}`);
      const [owner, ...others] = asAdmins(users);
      expect(others).toEqual([]);
      expect(owner).toMatchObject({
        id: account.users[0]?.id,
        username: 'boss@example.org',
        api: 0,
        permissions: ['superadmin'],
      });
      // The account's rate limit follows its plan (spec §8 rule 2): 3 × max_contacts.
      expect(users.headers['x-ratelimit-limit']).toBe(String(3 * DEFAULT_MAX_CONTACTS));
    });

    it('lists the account’s lists by name and its standard users only', async () => {
      const account = await createAccount({
        name: 'populated',
        administrator: 'pop-owner@example.org',
      });
      for (const name of ['zeta', 'alpha']) {
        expect(
          (await asGlobal('POST', `/api/2/lists/?account_id=${account.id}`, { form: { name } }))
            .status,
        ).toBe(200);
      }
      await server.createKey({ accountId: Number(account.id), permissions: ['list'] });
      const second = Administrator.parse(
        (
          await asGlobal('POST', `/api/2/users/?account_id=${account.id}`, {
            form: { username: 'pop-2@example.org' },
          })
        ).json,
      );
      const detail = asDetail(await asGlobal('GET', url(account.id)));
      expect(detail.lists).toEqual(['alpha', 'zeta']);
      expect(detail.users).toEqual([
        { id: account.users[0]?.id, username: 'pop-owner@example.org' },
        { id: second.id, username: 'pop-2@example.org' },
      ]);
      const listed = asAccounts(await asGlobal('GET', url())).find((a) => a.id === account.id);
      expect(listed).toEqual({
        id: account.id,
        name: 'populated',
        description: '',
        lists: ['alpha', 'zeta'],
        users: detail.users,
      });
    });

    const refused: [string, Record<string, unknown>][] = [
      ['no name', { description: 'x' }],
      ['an impossible name', { name: 'two words' }],
      ['a name over 64 characters', { name: 'a'.repeat(65) }],
      ['an administrator that is no email address', { name: 'acc1', administrator: 'boss' }],
      ['an unknown time zone', { name: 'acc2', timezone: 'Mars/Olympus' }],
      ['notify_approval 4', { name: 'acc3', notify_approval: 4 }],
      ['an unknown subscriptions mode', { name: 'acc4', subscriptions: 'free' }],
      ['a null subscriptions mode (lists only)', { name: 'acc5', subscriptions: '' }],
      ['an invalid restrict_contact expression', { name: 'acc6', restrict_contact: ['(['] }],
      ['max_contacts 0', { name: 'acc7', max_contacts: 0 }],
      ['an empty domain', { name: 'acc8', domain: '' }],
      ['a taken name', { name: 'acme' }],
    ];
    for (const [what, form] of refused) {
      it(`refuses ${what} with 400`, async () => {
        const before = asAccounts(await asGlobal('GET', url())).length;
        const response = await asGlobal('POST', url(), { form });
        expect(response.status).toBe(400);
        expect(asError(response).message).not.toBe('');
        expect(asAccounts(await asGlobal('GET', url())).length).toBe(before);
      });
    }

    it('ignores read-only and unknown fields, naming them (SECURITY.md 17)', async () => {
      const response = await asGlobal('POST', url(), { form: { name: 'acc9', id: 1, lists: ['a'], users: ['a'], plan: 'gold' } });
      expect(response.status).toBe(200);
      expect(response.headers['x-ignored-fields']).toBe('id, lists, users, plan');
      expect(response.json).toMatchObject({ name: 'acc9', lists: [], users: [] });
      expect(response.json).not.toHaveProperty('plan');
    });

    it('refuses an initial administrator whose username is taken, creating nothing', async () => {
      await createAccount({ name: 'first-owner', administrator: 'shared@example.org' });
      const response = await asGlobal('POST', url(), {
        form: { name: 'second-owner', administrator: 'Shared@example.org' },
      });
      expect(response.status).toBe(400);
      expect(asError(response).message).toMatch(/administrator/);
      expect(names(await asGlobal('GET', url()))).not.toContain('second-owner');
    });

    it('answers 404 for unknown or impossible ids', async () => {
      for (const id of ['999999', 'abc', '0', '-3', '1.5']) {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const response = await asGlobal(
            method,
            url(id),
            method === 'PUT' ? { form: { description: 'x' } } : {},
          );
          expect(response.status, `${method} ${id}`).toBe(404);
          expect(response.json).toEqual({ is_error: true, message: 'Account not found' });
        }
      }
    });
  });

  describe('get all', () => {
    const ids: Record<string, number> = {};
    let server2: TestServer;
    const get = (query: Record<string, unknown> = {}) =>
      server2.request('GET', url(), { key: server2.globalKey, query });
    beforeAll(async () => {
      server2 = await startTestServer(dialect);
      ids.acme = server2.account.id;
      for (const name of ['north', 'south', 'east']) {
        const created = await server2.request('POST', url(), {
          key: server2.globalKey,
          form: { name, administrator: `${name}@example.org` },
        });
        ids[name] = Number(asDetail(created).id);
      }
      for (const account of [ids.north, ids.south]) {
        await server2.request('POST', `/api/2/lists/?account_id=${account}`, {
          key: server2.globalKey,
          form: { name: 'weather' },
        });
      }
      await server2.createKey({ accountId: ids.east ?? 0, permissions: ['list'] });
      await server2.database.db
        .updateTable('administrators')
        .set({ description: 'sync job' })
        .where('account_id', '=', ids.east ?? 0)
        .where('api', '=', 2)
        .execute();
    });
    afterAll(() => server2.close());

    it('answers a bare JSON list of the basic fields, by id', async () => {
      const response = await get();
      expect(response.status).toBe(200);
      expect(names(response)).toEqual(['acme', 'north', 'south', 'east']);
      for (const account of asAccounts(response)) {
        expect(Object.keys(account).sort()).toEqual([
          'description',
          'id',
          'lists',
          'name',
          'users',
        ]);
      }
    });

    it('filters by listname, username (standard users, any case) and key description', async () => {
      expect(names(await get({ listname: 'weather' }))).toEqual(['north', 'south']);
      expect(names(await get({ listname: 'nothing' }))).toEqual([]);
      expect(names(await get({ username: 'SOUTH@example.org' }))).toEqual(['south']);
      expect(names(await get({ description: 'sync job' }))).toEqual(['east']);
      expect(names(await get({ description: 'sync' }))).toEqual([]);
      expect(names(await get({ listname: 'weather', username: 'north@example.org' }))).toEqual([
        'north',
      ]);
    });

    it('does not match a person by key description', async () => {
      await server2.database.db
        .updateTable('administrators')
        .set({ description: 'person note' })
        .where('username', '=', 'north@example.org')
        .execute();
      expect(names(await get({ description: 'person note' }))).toEqual([]);
    });

    it('pages with page and limit', async () => {
      expect(names(await get({ limit: 2 }))).toEqual(['acme', 'north']);
      expect(names(await get({ limit: 2, page: 2 }))).toEqual(['south', 'east']);
      expect(names(await get({ limit: 2, page: 3 }))).toEqual([]);
      expect(names(await get({ limit: 1000, page: 9_007_199_254_740_991 }))).toEqual([]);
    });

    for (const query of [
      { limit: 1001 },
      { limit: 0 },
      { page: 0 },
      { limit: 'x' },
      { name: 'acme' },
      { search: 'a' },
    ]) {
      it(`refuses the query ${JSON.stringify(query)} with 400`, async () => {
        expect((await get(query)).status).toBe(400);
      });
    }

    it('applies the filters to get one', async () => {
      const one = (query: Record<string, unknown>) =>
        server2.request('GET', url(ids.north ?? 0), { key: server2.globalKey, query });
      expect((await one({ listname: 'weather' })).status).toBe(200);
      expect((await one({ listname: 'other' })).status).toBe(404);
      expect((await one({ username: 'south@example.org' })).status).toBe(404);
    });
  });

  describe('update', () => {
    it('round-trips every field through PUT, changing only what is supplied', async () => {
      const created = await createAccount({ name: 'to-update', description: 'before', ...DETAILS });
      const partial = await asGlobal('PUT', url(created.id), {
        form: { description: 'after', timezone: 'Asia/Tokyo' },
      });
      expect(partial.status).toBe(200);
      expect(partial.json).toEqual({ ...created, description: 'after', timezone: 'Asia/Tokyo' });
      const full = await asGlobal('PUT', url(created.id), {
        form: {
          name: 'updated',
          description: 'all',
          max_contacts: 77,
          ccid: true,
          ...OTHER_DETAILS,
        },
      });
      expect(full.status).toBe(200);
      expect(full.json).toEqual({
        ...created,
        name: 'updated',
        description: 'all',
        max_contacts: 77,
        ccid: true,
        ...OTHER_DETAILS,
      });
      expect((await asGlobal('GET', url(created.id))).json).toEqual(full.json);
    });

    // Issue 16 finding 9, spec §2.1: a contact without a ccid would be unreachable once enabled.
    it('enables ccid only when every contact of the account has one', async () => {
      const created = await createAccount({ name: 'ccid-later' });
      const contacts = `/api/2/contacts/?account_id=${created.id}`;
      const added = await asGlobal('POST', contacts, { form: { emails: ['noccid@example.org'] } });
      expect(added.status).toBe(200);
      const refused = await asGlobal('PUT', url(created.id), { form: { ccid: true } });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({
        is_error: true,
        message: expect.stringMatching(/^ccid: 1 contact has no ccid/) as unknown,
      });
      expect((await asGlobal('GET', url(created.id))).json).toMatchObject({ ccid: false });
      const id = (added.json as { id: number }).id;
      expect((await asGlobal('PUT', `/api/2/contacts/${id}/?account_id=${created.id}`, { form: { ccid: 'C-1' } })).status).toBe(200);
      expect((await asGlobal('PUT', url(created.id), { form: { ccid: true } })).status).toBe(200);
      expect((await asGlobal('GET', `/api/2/contacts/C-1/?account_id=${created.id}`)).status).toBe(200);
    });

    // Issue 16 finding 9, its other half: a contact's id could equal another contact's ccid, and two
    // contacts would answer to one name once ccid is on.
    it('enables ccid so that each name answers for one contact, and keeps ccids distinct', async () => {
      const created = await createAccount({ name: 'ccid-names' });
      const contactUrl = (ref: string | number) => `/api/2/contacts/${String(ref)}/?account_id=${created.id}`;
      const add = async (email: string) => {
        const added = await asGlobal('POST', `/api/2/contacts/?account_id=${created.id}`, { form: { emails: [email] } });
        expect(added.status, added.body).toBe(200);
        return (added.json as { id: number }).id;
      };
      const first = await add('first@example.org');
      const second = await add('second@example.org');
      // The second contact's ccid is the first one's service id: once on, the first (named by its
      // id, having no ccid) and the second would both answer to it. Refused.
      expect((await asGlobal('PUT', contactUrl(second), { form: { ccid: String(first) } })).status).toBe(200);
      expect((await asGlobal('PUT', url(created.id), { form: { ccid: true } })).status).toBe(400);
      expect((await asGlobal('PUT', contactUrl(first), { form: { ccid: 'F-1' } })).status).toBe(200);
      expect((await asGlobal('PUT', url(created.id), { form: { ccid: true } })).status).toBe(200);
      // That name is the second contact's alone now; the first answers to its ccid.
      expect((await asGlobal('GET', contactUrl(first))).json).toMatchObject({ ccid: String(first), emails: [{ email: 'second@example.org' }] });
      expect((await asGlobal('GET', contactUrl('F-1'))).json).toMatchObject({ emails: [{ email: 'first@example.org' }] });
      // A ccid another contact holds is refused (spec §7: 409), on create and update.
      const conflict = { is_error: true, message: `A contact with ccid ${String(first)} already exists` };
      const taken = await asGlobal('POST', `/api/2/contacts/?account_id=${created.id}`, {
        form: { ccid: String(first), emails: ['third@example.org'] },
      });
      expect([taken.status, taken.json]).toEqual([409, conflict]);
      const moved = await asGlobal('PUT', contactUrl('F-1'), { form: { ccid: String(first) } });
      expect([moved.status, moved.json]).toEqual([409, conflict]);
      expect((await asGlobal('GET', contactUrl('F-1'))).status).toBe(200);
    });

    it('puts a new plan into effect at once (spec §8 rule 2)', async () => {
      const created = await createAccount({ name: 'plan', max_contacts: 10 });
      const listsUrl = `/api/2/lists/?account_id=${created.id}`;
      expect((await asGlobal('GET', listsUrl)).headers['x-ratelimit-limit']).toBe('30');
      await asGlobal('PUT', url(created.id), { form: { max_contacts: 20 } });
      expect((await asGlobal('GET', listsUrl)).headers['x-ratelimit-limit']).toBe('60');
    });

    it('refuses create-only, read-only, invalid and taken values, changing nothing', async () => {
      const created = await createAccount({ name: 'guarded-account', ...DETAILS });
      for (const form of [
        { name: 'acme' },
        { name: 'bad name' },
        { timezone: 'Nowhere/Else' },
        { notify_approval: 9 },
        { restrict_contact_subscription: ['('] },
      ]) {
        const response = await asGlobal('PUT', url(created.id), { form });
        expect(response.status, JSON.stringify(form)).toBe(400);
      }
      expect((await asGlobal('GET', url(created.id))).json).toEqual(created);
      // Create-only, read-only and unknown fields are ignored and named (SECURITY.md 17).
      const extras = { domain: 'x.org', administrator: 'a@example.org', id: 3, lists: ['a'], users: ['a'], color: 'blue' };
      const response = await asGlobal('PUT', url(created.id), { form: extras });
      expect(response.status).toBe(200);
      expect(response.headers['x-ignored-fields']).toBe(Object.keys(extras).join(', '));
      expect((await asGlobal('GET', url(created.id))).json).toEqual(created);
    });
  });

  describe('delete', () => {
    it('deletes the account with everything in it', async () => {
      const created = await createAccount({
        name: 'doomed-account',
        administrator: 'doomed@example.org',
      });
      const accountId = Number(created.id);
      const scoped = (path: string) => `${path}?account_id=${accountId}`;
      await asGlobal('POST', scoped('/api/2/lists/'), { form: { name: 'l' } });
      const contact = await asGlobal('POST', scoped('/api/2/contacts/'), {
        form: { emails: ['c@example.org'], lists: ['l'] },
      });
      expect(contact.status).toBe(200);
      expect(
        (
          await asGlobal('POST', scoped('/api/2/messages/'), {
            form: { list: 'l', content_plain: 'hi' },
          })
        ).status,
      ).toBe(200);
      await server.database.db
        .insertInto('custom_fields')
        .values({ account_id: accountId, name: 'city', identifier: null })
        .execute();
      const key = await server.createKey({ accountId, permissions: ['superadmin'] });
      const owner = asDetail(await asGlobal('GET', url(accountId))).users[0]?.id;
      const ownerKey = RetrievedKey.parse(
        (
          await asGlobal('PUT', scoped(`/api/2/users/${String(owner)}/`), {
            form: { get_key: true },
          })
        ).json,
      ).key;
      expect((await server.request('GET', '/api/2/lists/', { key })).status).toBe(200);

      const response = await asGlobal('DELETE', url(accountId));
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ success: 1 });
      expect((await asGlobal('GET', url(accountId))).status).toBe(404);
      expect((await server.request('GET', '/api/2/lists/', { key })).status).toBe(401);
      expect((await server.request('GET', '/api/2/lists/', { key: ownerKey })).status).toBe(401);
      const db = server.database.db;
      for (const table of [
        'administrators',
        'custom_fields',
        'contacts',
        'emails',
        'lists',
        'memberships',
        'messages',
        'outbox',
      ] as const) {
        const rows = await db
          .selectFrom(table)
          .select('account_id')
          .where('account_id', '=', accountId)
          .execute();
        expect(rows, table).toEqual([]);
      }
      expect(await db.selectFrom('contact_values').selectAll().execute()).toEqual([]);
      expect((await asGlobal('DELETE', url(accountId))).status).toBe(404);
      // The other accounts are untouched.
      expect((await server.request('GET', '/api/2/lists/')).status).toBe(200);
    });
  });
});
