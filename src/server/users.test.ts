import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ErrorBody } from '../api/primitives.ts';
import { Administrator, RetrievedKey } from '../api/schemas/administrator.ts';
import { hashKey, verifyPassword } from './auth/keys.ts';
import { manualClock } from './lib/clock.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './test/harness.ts';

/** Answers read through the contract's schemas: typed, and checked once more. */
const asAdmin = (response: TestResponse) => Administrator.parse(response.json);
const asAdmins = (response: TestResponse) =>
  z.strictObject({ data: z.array(Administrator) }).parse(response.json).data;
const asKey = (response: TestResponse) => RetrievedKey.parse(response.json);
const asError = (response: TestResponse) => ErrorBody.parse(response.json);
const ANY_NUMBER: unknown = expect.any(Number);

const FULL = {
  firstname: 'Ada',
  surname: 'Lovelace',
  cidr: '10.0.0.0/8',
  custom_image: true,
  mfa_type: 'otp',
  notifications: ['list_manager', 'bounce', 'approval'],
  permissions: ['list', 'contact', 'limit_lists', 'limit_metadata'],
  limit_metadata: ['city', 'Favourite colour'],
  limit_lists: ['news', 'staff'],
};

const ADMIN_KEYS = [
  'id',
  'firstname',
  'surname',
  'cidr',
  'custom_image',
  'mfa_type',
  'api',
  'authn_provider',
  'notifications',
  'permissions',
  'limit_metadata',
  'limit_lists',
];

describeEachDialect('users (spec §2.6, §4.6, §9)', (dialect) => {
  let server: TestServer;
  const url = (id: string | number = '') =>
    `/api/2/users/${id === '' ? '' : `${encodeURIComponent(String(id))}/`}`;
  const create = (form: Record<string, unknown>, key?: string, query = '') =>
    server.request('POST', `${url()}${query}`, { form, key });
  const createdId = async (form: Record<string, unknown>, key?: string, query = '') => {
    const response = await create(form, key, query);
    expect(response.status, response.body).toBe(200);
    return Number(asAdmin(response).id);
  };
  const get = async (id: string | number, key?: string) =>
    asAdmin(await server.request('GET', url(id), { key }));
  const keyFor = async (id: number) =>
    asKey(await server.request('PUT', url(id), { form: { get_key: true } })).key;
  const passwordHash = async (id: number) =>
    (
      await server.database.db
        .selectFrom('administrators')
        .select('password_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).password_hash;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  describe('read', () => {
    it('answers get all as an object holding the account’s administrators; keys have api 2 and no username', async () => {
      const response = await server.request('GET', url());
      expect(response.status).toBe(200);
      expect(Object.keys(z.looseObject({}).parse(response.json))).toEqual(['data']);
      const admins = asAdmins(response);
      expect(admins).toHaveLength(1);
      expect(admins[0]).toEqual({
        id: ANY_NUMBER,
        description: '',
        firstname: '',
        surname: '',
        cidr: null,
        custom_image: false,
        mfa_type: null,
        api: 2,
        authn_provider: null,
        notifications: [],
        permissions: ['superadmin'],
        limit_metadata: [],
        limit_lists: [],
        // The key_expiry extension: its one key never expires.
        key_expiry: null,
      });
      expect(admins[0]).not.toHaveProperty('username');
    });
  });

  describe('create', () => {
    it('creates a person from a username alone (api 0), with empty arrays', async () => {
      const response = await create({ username: 'first@example.org' });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({
        id: ANY_NUMBER,
        username: 'first@example.org',
        firstname: '',
        surname: '',
        cidr: null,
        custom_image: false,
        mfa_type: null,
        api: 0,
        authn_provider: null,
        notifications: [],
        permissions: [],
        limit_metadata: [],
        limit_lists: [],
      });
      expect(response.json).not.toHaveProperty('description');
      expect(await passwordHash(Number(asAdmin(response).id))).toBeNull();
    });

    it('creates an API key entry from a description instead of a username (api 2, spec §2.6)', async () => {
      const response = await create({ description: 'Nightly export', permissions: ['contact'] });
      expect(response.status, response.body).toBe(200);
      const entry = asAdmin(response);
      expect(entry).toMatchObject({ api: 2, description: 'Nightly export', permissions: ['contact'] });
      expect(response.json).not.toHaveProperty('username');
      const key = asKey(await server.request('PUT', url(entry.id), { form: { get_key: '' } })).key;
      expect((await server.request('GET', '/api/2/contacts/', { key })).status).toBe(200);
      expect((await server.request('GET', '/api/2/users/', { key })).status).toBe(403);
    });

    it('round-trips every writable field through POST and GET; welcome_email is accepted', async () => {
      const response = await create({
        username: 'full@example.org',
        welcome_email: false,
        ...FULL,
      });
      expect(response.status).toBe(200);
      const created = asAdmin(response);
      expect(created).toEqual({
        id: ANY_NUMBER,
        username: 'full@example.org',
        api: 0,
        authn_provider: null,
        ...FULL,
      });
      const read = await get(created.id);
      expect(read).toEqual(created);
      expect(Object.keys(read).sort()).toEqual([...ADMIN_KEYS, 'username'].sort());
    });

    it('stores a password only as a hash, never returned', async () => {
      const response = await create({
        username: 'pw@example.org',
        password: 'correct horse battery',
      });
      expect(response.status).toBe(200);
      expect(response.body).not.toMatch(/password|scrypt|horse/);
      const hash = await passwordHash(Number(asAdmin(response).id));
      expect(hash).toMatch(/^scrypt\$/);
      expect(await verifyPassword('correct horse battery', hash ?? '')).toBe(true);
      expect((await server.request('GET', url())).body).not.toMatch(/password|scrypt/);
    });

    const refused: [string, Record<string, unknown>][] = [
      ['no username (nor a description)', { firstname: 'x' }],
      ['a username that is no email address', { username: 'admin' }],
      ['an unknown permission', { username: 'p1@example.org', permissions: ['god'] }],
      ['an unknown notification', { username: 'p2@example.org', notifications: ['sms'] }],
      ['an unknown mfa_type', { username: 'p3@example.org', mfa_type: 'yubikey' }],
      ['an invalid cidr', { username: 'p4@example.org', cidr: '10.0.0.0/33' }],
      ['a short password', { username: 'p5@example.org', password: 'short' }],
      ['a password for an API key, which does not sign in', { description: 'k', password: 'long enough pass' }],
      [
        'an impossible limit_lists name',
        { username: 'p6@example.org', limit_lists: ['two words'] },
      ],
      [
        'a description beside a username (spec §9 rule 3: keys only)',
        { username: 'p11@example.org', description: 'x' },
      ],
    ];
    for (const [what, form] of refused) {
      it(`refuses ${what} with 400`, async () => {
        const before = asAdmins(await server.request('GET', url())).length;
        const response = await create(form);
        expect(response.status).toBe(400);
        expect(asError(response).message).not.toBe('');
        expect(asAdmins(await server.request('GET', url())).length).toBe(before);
      });
    }

    it('ignores read-only, version 1 and unknown fields, naming them (SECURITY.md 17)', async () => {
      const response = await create({
        username: 'p7@example.org',
        id: 987654,
        api: 0,
        authn_provider: 'saml',
        can_write: 1,
        get_key: '',
        role: 'admin',
      });
      const admin = asAdmin(response);
      expect(admin).toMatchObject({ username: 'p7@example.org', authn_provider: null });
      expect(admin.id).not.toBe(987654);
      expect(admin).not.toHaveProperty('role');
      expect(admin).not.toHaveProperty('key');
      expect(response.headers['x-ignored-fields']).toBe('id, api, authn_provider, can_write, get_key, role');
    });

    // SECURITY.md 33 (issue 16 finding 11): the answer does not tell that another tenant has it.
    it('refuses a username already taken, whatever its case and its account, saying the same either way', async () => {
      await create({ username: 'taken@example.org' });
      const again = await create({ username: 'Taken@Example.org' });
      expect(again.status).toBe(400);
      const other = await server.createAccount('users-dup');
      const otherKey = await server.createKey({ accountId: other.id, permissions: ['superadmin'] });
      const elsewhere = await create({ username: 'taken@example.org' }, otherKey);
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.json).toEqual(again.json);
      const renamed = await server.request('PUT', url(await createdId({ username: 'free@example.org' }, otherKey)), {
        key: otherKey,
        form: { username: 'TAKEN@example.org' },
      });
      expect(renamed.json).toEqual(again.json);
      expect(asError(elsewhere).message).not.toMatch(/exist|already|account|taken@/i);
    });
  });

  describe('get one', () => {
    it('finds an administrator by id and by URL-encoded username, in any case', async () => {
      const created = asAdmin(await create({ username: 'find.me+tag@example.org' }));
      expect(await get(created.id)).toEqual(created);
      expect(await get('find.me+tag@example.org')).toEqual(created);
      expect(
        (await server.request('GET', '/api/2/users/find.me%2Btag%40example.org/')).json,
      ).toEqual(created);
      expect(await get('FIND.ME+tag@example.org')).toEqual(created);
    });

    it('answers 404 for unknown ids and usernames', async () => {
      for (const id of ['999999', 'nobody@example.org', 'abc', '0', '-1', '1e3']) {
        const response = await server.request('GET', url(id));
        expect(response.status, id).toBe(404);
        expect(response.json).toEqual({ is_error: true, message: 'Administrator not found' });
      }
    });
  });

  describe('update', () => {
    it('changes only the supplied fields; arrays are replaced whole', async () => {
      const created = asAdmin(await create({ username: 'upd@example.org', ...FULL }));
      const response = await server.request('PUT', url(created.id), {
        form: { firstname: 'Augusta', permissions: ['messages'], notifications: ['account'] },
      });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({
        ...created,
        firstname: 'Augusta',
        permissions: ['messages'],
        notifications: ['account'],
      });
      expect(await get(created.id)).toEqual(asAdmin(response));
    });

    it('round-trips every writable field through PUT', async () => {
      const created = asAdmin(await create({ username: 'upd-all@example.org' }));
      const response = await server.request('PUT', url(created.id), {
        form: { username: 'renamed@example.org', ...FULL },
      });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ ...created, username: 'renamed@example.org', ...FULL });
      expect((await get('renamed@example.org')).id).toBe(created.id);
    });

    it('clears arrays with one empty key, and nullable fields with an empty value', async () => {
      const id = await createdId({ username: 'clear@example.org', ...FULL });
      const response = await server.request('PUT', url(id), {
        body: 'permissions=&notifications=&limit_lists=&limit_metadata=&cidr=&mfa_type=',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        permissions: [],
        notifications: [],
        limit_lists: [],
        limit_metadata: [],
        cidr: null,
        mfa_type: null,
      });
    });

    it('sets and replaces the password', async () => {
      const id = await createdId({ username: 'newpw@example.org' });
      const response = await server.request('PUT', url(id), {
        form: { password: 'a brand new password' },
      });
      expect(response.status).toBe(200);
      expect(response.body).not.toMatch(/password_hash|scrypt/);
      expect(await verifyPassword('a brand new password', (await passwordHash(id)) ?? '')).toBe(
        true,
      );
    });

    it('refuses a username taken by another administrator, and accepts its own', async () => {
      const a = await createdId({ username: 'ua@example.org' });
      await createdId({ username: 'ub@example.org' });
      expect(
        (await server.request('PUT', url(a), { form: { username: 'UB@example.org' } })).status,
      ).toBe(400);
      expect(
        (await server.request('PUT', url(a), { form: { username: 'UA@example.org' } })).status,
      ).toBe(200);
    });

    it('applies the version rules of spec §9 to keys and people', async () => {
      const keyAdmin = asAdmins(await server.request('GET', url())).find(
        (admin) => admin.api === 2,
      );
      const keyId = Number(keyAdmin?.id);
      expect(
        (await server.request('PUT', url(keyId), { form: { username: 'key@example.org' } })).status,
      ).toBe(400);
      expect(
        (await server.request('PUT', url(keyId), { form: { password: 'a long enough password' } }))
          .status,
      ).toBe(400);
      const described = await server.request('PUT', url(keyId), {
        form: { description: 'CI key' },
      });
      expect(described.status).toBe(200);
      expect(asAdmin(described).description).toBe('CI key');
      const person = await createdId({ username: 'person@example.org' });
      expect(
        (await server.request('PUT', url(person), { form: { description: 'x' } })).status,
      ).toBe(400);
    });

    it('refuses invalid, read-only and unknown fields, changing nothing', async () => {
      const created = asAdmin(await create({ username: 'guard@example.org', ...FULL }));
      for (const form of [{ permissions: ['root'] }, { username: 'nope' }, { expiry_months: 3 }]) {
        const response = await server.request('PUT', url(created.id), { form });
        expect(response.status, JSON.stringify(form)).toBe(400);
      }
      expect(await get(created.id)).toEqual(created);
      // Read-only and unknown fields are ignored and named; the administrator stays as it was.
      for (const form of [
        { id: 5 },
        { api: 0 },
        { can_write: 1 },
        { authn_provider: 'x' },
        { nickname: 'x' },
        { key_expiry: '' },
        { key_expiry: '2030-01-01T00:00:00.000Z' },
      ]) {
        const response = await server.request('PUT', url(created.id), { form });
        expect(response.status, JSON.stringify(form)).toBe(200);
        expect(response.headers['x-ignored-fields'], JSON.stringify(form)).toBe(Object.keys(form)[0]);
      }
      expect(await get(created.id)).toEqual(created);
    });

    it('answers 404 for an unknown administrator', async () => {
      expect((await server.request('PUT', url(999_999), { form: { firstname: 'x' } })).status).toBe(
        404,
      );
      expect((await server.request('PUT', url('x'), { form: { firstname: 'x' } })).status).toBe(
        404,
      );
    });
  });

  describe('key retrieval (PUT with get_key)', () => {
    it('answers a key that works at once with the administrator’s permissions, without expiry by default', async () => {
      const id = await createdId({ username: 'keyholder@example.org', permissions: ['list'] });
      const response = await server.request('PUT', url(id), {
        body: 'get_key',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(200);
      const { key, expiry } = asKey(response);
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(expiry).toBeNull();
      expect((await server.request('GET', '/api/2/lists/', { key })).status).toBe(200);
      expect((await server.request('GET', url(), { key })).status).toBe(403);
      // Only the hash is stored.
      const stored = await server.database.db
        .selectFrom('api_keys')
        .select('key_hash')
        .where('administrator_id', '=', id)
        .execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.key_hash).not.toContain(key);
    });

    it('sets the expiry from expiry_months, in calendar months counted by the server’s clock', async () => {
      // A server of its own whose clock the test sets: the expected dates are written out, so
      // the test says what "3 months from 29 November" is instead of computing it.
      const clock = manualClock(new Date('2026-11-29T10:00:00.000Z'));
      const dated = await startTestServer(dialect, { clock });
      try {
        const id = Number(
          asAdmin(
            await dated.request('POST', url(), {
              form: { username: 'expiring@example.org', permissions: ['list'] },
            }),
          ).id,
        );
        const cases: [string, number, string][] = [
          ['2026-11-29T10:00:00.000Z', 1, '2026-12-29T10:00:00.000Z'],
          ['2026-11-29T10:00:00.000Z', 3, '2027-02-28T10:00:00.000Z'],
          ['2026-11-29T10:00:00.000Z', 6, '2027-05-29T10:00:00.000Z'],
          ['2026-11-29T10:00:00.000Z', 12, '2027-11-29T10:00:00.000Z'],
          ['2027-01-31T23:30:00.000Z', 1, '2027-02-28T23:30:00.000Z'],
          ['2027-03-31T08:00:00.000Z', 6, '2027-09-30T08:00:00.000Z'],
          ['2028-02-29T00:00:00.000Z', 12, '2029-02-28T00:00:00.000Z'],
        ];
        for (const [now, months, expected] of cases) {
          clock.set(new Date(now));
          const response = await dated.request('PUT', url(id), {
            form: { get_key: true, expiry_months: months },
          });
          expect(response.status, `${now} + ${months}`).toBe(200);
          const { key, expiry } = asKey(response);
          expect(expiry, `${now} + ${months}`).toBe(expected);
          // The key works until that instant and not at it.
          expect((await dated.request('GET', '/api/2/lists/', { key })).status).toBe(200);
          clock.set(new Date(Date.parse(expected) - 1));
          expect((await dated.request('GET', '/api/2/lists/', { key })).status).toBe(200);
          clock.set(new Date(expected));
          expect((await dated.request('GET', '/api/2/lists/', { key })).status).toBe(401);
        }
      } finally {
        await dated.close();
      }
    });

    it('refuses other expiry_months, and get_key mixed with other fields', async () => {
      const id = await createdId({ username: 'strict@example.org' });
      for (const form of [
        { get_key: true, expiry_months: 2 },
        { get_key: true, expiry_months: 24 },
        { get_key: true, expiry_months: 'soon' },
        { get_key: true, firstname: 'x' },
      ]) {
        const response = await server.request('PUT', url(id), { form });
        expect(response.status, JSON.stringify(form)).toBe(400);
      }
      expect((await get(id)).firstname).toBe('');
    });

    it('treats get_key=0 as absent', async () => {
      const id = await createdId({ username: 'zero@example.org' });
      const response = await server.request('PUT', url(id), {
        form: { get_key: '0', firstname: 'Z' },
      });
      expect(response.status).toBe(200);
      expect(response.json).not.toHaveProperty('key');
      expect(asAdmin(response).firstname).toBe('Z');
    });
  });

  describe('key_expiry (reference-server extension)', () => {
    const setExpiry = (key: string, expiresAt: string | null) =>
      server.database.db
        .updateTable('api_keys')
        .set({ expires_at: expiresAt })
        .where('key_hash', '=', hashKey(key))
        .execute();
    const retrieve = async (id: number, months?: number) =>
      asKey(
        await server.request('PUT', url(id), {
          form: months === undefined ? { get_key: true } : { get_key: true, expiry_months: months },
        }),
      );

    it('is absent while an administrator has no key, and follows the keys it gets', async () => {
      const id = await createdId({ username: 'expiry-watch@example.org' });
      const fresh = await get(id);
      expect(fresh).not.toHaveProperty('key_expiry');
      expect(
        asAdmins(await server.request('GET', url())).find((a) => a.id === id),
      ).not.toHaveProperty('key_expiry');

      const { expiry: inThree } = await retrieve(id, 3);
      expect((await get(id)).key_expiry).toBe(inThree);
      // The latest expiry of its keys: a key that runs out sooner does not shorten it.
      const { expiry: inTwelve } = await retrieve(id, 12);
      await retrieve(id, 1);
      expect((await get(id)).key_expiry).toBe(inTwelve);
      // Every answer that carries the administrator says the same.
      const listed = asAdmins(await server.request('GET', url())).find((a) => a.id === id);
      expect(listed?.key_expiry).toBe(inTwelve);
      const updated = await server.request('PUT', url(id), { form: { firstname: 'Watched' } });
      expect(asAdmin(updated).key_expiry).toBe(inTwelve);

      // One key that never expires: the administrator's keys never all stop working.
      await retrieve(id);
      expect((await get(id)).key_expiry).toBeNull();
    });

    it('is in the past once every key has expired, and such keys no longer authenticate', async () => {
      const id = await createdId({ username: 'expired-keys@example.org', permissions: ['list'] });
      const { key: first } = await retrieve(id, 1);
      const { key: second } = await retrieve(id, 6);
      // In the past by the server's clock, not by the machine's.
      const now = server.clock.now().getTime();
      const yesterday = new Date(now - 86_400_000).toISOString();
      await setExpiry(first, new Date(now - 366 * 86_400_000).toISOString());
      await setExpiry(second, yesterday);
      expect((await get(id)).key_expiry).toBe(yesterday);
      expect((await server.request('GET', '/api/2/lists/', { key: second })).status).toBe(401);
    });

    it('describes the keys of the administrator only, in its own account only', async () => {
      const other = await server.createAccount('expiry-scope');
      const otherKey = await server.createKey({
        accountId: other.id,
        permissions: ['superadmin'],
        expiryMonths: 6,
      });
      const theirs = asAdmins(await server.request('GET', url(), { key: otherKey }));
      expect(theirs).toHaveLength(1);
      expect(Date.parse(theirs[0]?.key_expiry ?? '')).toBeGreaterThan(server.clock.now().getTime());
      // Our account's administrators are untouched by their key.
      const ours = asAdmins(await server.request('GET', url()));
      expect(ours.find((admin) => admin.api === 2)?.key_expiry).toBeNull();
    });
  });

  describe('delete', () => {
    it('deletes an administrator with its keys', async () => {
      const id = await createdId({ username: 'leaving@example.org', permissions: ['list'] });
      const key = await keyFor(id);
      const response = await server.request('DELETE', url(id));
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ success: 1 });
      expect((await server.request('GET', url(id))).status).toBe(404);
      expect((await server.request('GET', '/api/2/lists/', { key })).status).toBe(401);
      expect((await server.request('DELETE', url(id))).status).toBe(404);
    });

    it('refuses to delete the administrator whose key makes the request', async () => {
      const id = await createdId({ username: 'self@example.org', permissions: ['superadmin'] });
      const key = await keyFor(id);
      const response = await server.request('DELETE', url(id), { key });
      expect(response.status).toBe(400);
      expect(asError(response).message).toMatch(/itself/);
      expect((await server.request('GET', url(id), { key })).status).toBe(200);
      // Another superadmin may.
      expect((await server.request('DELETE', url(id))).status).toBe(200);
    });
  });

  describe('scope (spec §4.8)', () => {
    let other: { id: number; name: string };
    let otherKey: string;
    let otherUser: number;
    beforeAll(async () => {
      other = await server.createAccount('users-scope');
      otherKey = await server.createKey({ accountId: other.id, permissions: ['superadmin'] });
      otherUser = await createdId({ username: 'other-account@example.org' }, otherKey);
    });

    it('confines an account key to its account’s administrators', async () => {
      const ours = asAdmins(await server.request('GET', url())).map((admin) => admin.id);
      expect(ours).not.toContain(otherUser);
      expect((await server.request('GET', url(otherUser))).status).toBe(404);
      expect((await server.request('GET', url('other-account@example.org'))).status).toBe(404);
      expect(
        (await server.request('PUT', url(otherUser), { form: { firstname: 'x' } })).status,
      ).toBe(404);
      expect(
        (await server.request('PUT', url(otherUser), { form: { get_key: true } })).status,
      ).toBe(404);
      expect((await server.request('DELETE', url(otherUser))).status).toBe(404);
      expect((await server.request('GET', `${url()}?account_id=${other.id}`)).status).toBe(403);
    });

    it('gives a global key without account_id the global administrators, and with it the account’s', async () => {
      const global = await server.request('GET', url(), { key: server.globalKey });
      expect(global.status).toBe(200);
      const globals = asAdmins(global);
      expect(globals).toHaveLength(1);
      expect(globals[0]).toMatchObject({ api: 2, permissions: ['superadmin', 'account'] });
      const scoped = asAdmins(
        await server.request('GET', `${url()}?account_id=${other.id}`, { key: server.globalKey }),
      );
      expect(scoped.map((admin) => admin.id)).toContain(otherUser);
      expect((await server.request('GET', url(otherUser), { key: server.globalKey })).status).toBe(
        404,
      );
      const viaAccountId = await server.request('GET', `${url(otherUser)}?account_id=${other.id}`, {
        key: server.globalKey,
      });
      expect(viaAccountId.status).toBe(200);
    });

    it('creates global administrators with a global key without account_id', async () => {
      const id = await createdId(
        { username: 'global-person@example.org', permissions: ['account'] },
        server.globalKey,
      );
      const row = await server.database.db
        .selectFrom('administrators')
        .select('account_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.account_id).toBeNull();
      expect((await server.request('GET', url(id))).status).toBe(404);
      const inAccount = await createdId(
        { username: 'placed@example.org' },
        server.globalKey,
        `?account_id=${other.id}`,
      );
      expect((await server.request('GET', url(inAccount), { key: otherKey })).status).toBe(200);
    });

    it('needs superadmin for every users operation', async () => {
      const weak = await server.createKey({
        accountId: server.account.id,
        permissions: ['list', 'contact', 'messages', 'account'],
      });
      expect((await server.request('GET', url(), { key: weak })).status).toBe(403);
      expect((await create({ username: 'weak@example.org' }, weak)).status).toBe(403);
      expect((await server.request('GET', url(otherUser), { key: weak })).status).toBe(403);
    });
  });
});
