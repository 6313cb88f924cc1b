import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPage, type AuditEntry } from '../api/schemas/audit.ts';
import { GATEWAY_PATHS } from '../api/gateway.ts';
import { runCommand } from './cli-commands.ts';
import { manualClock } from './lib/clock.ts';
import { createPerson, registerClient } from './oauth/oauth-test-support.ts';
import { insertHeldMessage } from './test/held-fixtures.ts';
import { fromDashboard, listening, startGatewayInFront } from './test/gateway-in-front.ts';
import { insertBounceState } from './test/bounce-fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { linkIn, mailsTo, publicClient } from './test/public-client.ts';
import { insertWaitingRequest } from './test/request-fixtures.ts';
import { testClock } from './test/test-clock.ts';

const DOMAIN = 'lists.audit.example';

/**
 * Issue 26 item 4: every write is recorded, from each path (the API for each kind of object, the
 * held and request queues, the members' workflow, the command line, the gateway in front), with
 * when (the server's clock), who, from where, the operation, the object and its list, and each
 * field's old and new value. A write refused records nothing.
 */
describeEachDialect('the audit log records every write', (dialect) => {
  const clock = manualClock(testClock().now());
  let server: TestServer;
  let people: ReturnType<typeof publicClient>;

  beforeAll(async () => {
    server = await startTestServer(dialect, { clock });
    await server.database.db
      .updateTable('accounts')
      .set({ domain: DOMAIN })
      .where('id', '=', server.account.id)
      .execute();
    people = publicClient(server, clock);
  });
  afterAll(() => server.close());

  /** The newest entries of an operation, as a superadmin of the account reads them. */
  async function entries(
    query: Record<string, unknown>,
    key = server.accountKey,
  ): Promise<AuditEntry[]> {
    const answer = await server.request('GET', '/api/2/audit/', {
      key,
      query: { limit: 100, ...query },
    });
    expect(answer.status, answer.body).toBe(200);
    return AuditPage.parse(answer.json).data;
  }
  async function newest(operation: string, key?: string): Promise<AuditEntry> {
    const [entry] = await entries({ operation }, key);
    if (!entry) throw new Error(`no ${operation} entry`);
    return entry;
  }
  async function write(
    method: string,
    url: string,
    form?: Record<string, unknown>,
    key = server.accountKey,
  ) {
    const answer = await server.request(method, url, { key, form, remoteAddress: '192.0.2.10' });
    expect(answer.status, answer.body).toBe(200);
    return answer.json as Record<string, unknown>;
  }
  const administratorId = async (key: string) =>
    (
      (await server.request('GET', '/api/2/caller/', { key })).json as {
        administrator: { id: number };
      }
    ).administrator.id;

  describe('the API', () => {
    it('records a contact, its addresses and memberships: who, when, from where, each field before and after', async () => {
      clock.set(new Date('2027-03-31T23:30:00.000Z'));
      await write('POST', '/api/2/lists/', { name: 'book' });
      const contact = await write('POST', '/api/2/contacts/', {
        emails: ['ada@example.org'],
        firstname: 'Ada',
        lists: ['book'],
      });
      const created = await newest('contacts.create');
      expect(created).toMatchObject({
        time: '2027-03-31T23:30:00.000Z',
        actor: { type: 'administrator', id: await administratorId(server.accountKey) },
        address: '192.0.2.10',
        service: 'api',
        object: { type: 'contact', id: String(contact.id), list: null },
      });
      expect(created.changes).toEqual([
        { field: 'firstname', new: 'Ada' },
        { field: 'emails', new: ['ada@example.org'] },
        { field: 'lists', new: ['book'] },
      ]);

      clock.advance(60_000);
      await write('PUT', `/api/2/contacts/${String(contact.id)}/`, {
        firstname: 'Ada L.',
        notes: 'Met at the fair',
      });
      expect((await newest('contacts.update')).changes).toEqual([
        { field: 'firstname', old: 'Ada', new: 'Ada L.' },
        { field: 'notes', old: '', new: 'Met at the fair' },
      ]);
      expect((await newest('contacts.update')).time).toBe('2027-03-31T23:31:00.000Z');

      const email = await write('POST', '/api/2/emails/', {
        email: 'ada@work.example',
        contact: contact.id,
      });
      expect(await newest('emails.create')).toMatchObject({
        object: { type: 'email', id: String(email.id) },
        details: { email: 'ada@work.example', contact: contact.id },
      });
      await write('PUT', `/api/2/emails/${String(email.id)}/`, { paused: true });
      expect((await newest('emails.update')).changes).toEqual([
        { field: 'paused', old: false, new: true },
      ]);
      await write('DELETE', `/api/2/emails/${String(email.id)}/`);
      expect((await newest('emails.delete')).changes).toEqual(
        expect.arrayContaining([
          { field: 'email', old: 'ada@work.example' },
          { field: 'paused', old: true },
        ]),
      );

      const membershipId = (contact.lists as { id: number }[])[0]?.id;
      await write('PUT', `/api/2/membership/${String(membershipId)}/`, { digest: 1 });
      expect(await newest('membership.update')).toMatchObject({
        object: { type: 'membership', id: String(membershipId), list: 'book' },
        changes: [{ field: 'digest', old: null, new: true }],
      });
      await write('DELETE', `/api/2/membership/${String(membershipId)}/`);
      expect(await newest('membership.delete')).toMatchObject({ object: { list: 'book' } });
      const joined = await write('POST', '/api/2/membership/', {
        contact: contact.id,
        list: 'book',
      });
      expect(await newest('membership.create')).toMatchObject({
        object: { type: 'membership', id: String(joined.id), list: 'book' },
      });

      await write('DELETE', `/api/2/contacts/${String(contact.id)}/`);
      const deleted = await newest('contacts.delete');
      expect(deleted.object).toEqual({ type: 'contact', id: String(contact.id), list: null });
      expect(deleted.changes).toEqual(
        expect.arrayContaining([
          { field: 'firstname', old: 'Ada L.' },
          { field: 'emails', old: ['ada@example.org'] },
        ]),
      );
    });

    it('shows a change of list settings setting by setting; a rename keeps the list; a delete counts its members', async () => {
      const list = await write('POST', '/api/2/lists/', {
        name: 'garden',
        description: 'Growing things',
        taboo_body: ['viagra'],
      });
      // A new list shows what it was made with beyond the defaults.
      expect((await newest('lists.create')).changes).toEqual([
        { field: 'name', new: 'garden' },
        { field: 'description', new: 'Growing things' },
        { field: 'taboo_body', new: ['viagra'] },
      ]);
      await write('PUT', '/api/2/lists/garden/', {
        name: 'allotment',
        subject_prefix: '[allotment]',
        taboo_body: ['viagra', 'casino'],
        send_hold_message: false,
        message_footer: 'Line one\nLine two',
      });
      const updated = await newest('lists.update');
      expect(updated.object).toEqual({ type: 'list', id: String(list.id), list: 'allotment' });
      expect(updated.changes).toEqual([
        { field: 'name', old: 'garden', new: 'allotment' },
        { field: 'subject_prefix', old: '', new: '[allotment]' },
        { field: 'message_footer', old: '', new: 'Line one\nLine two' },
        { field: 'taboo_body', old: ['viagra'], new: ['viagra', 'casino'] },
        { field: 'send_hold_message', old: true, new: false },
      ]);
      for (const n of [1, 2, 3])
        await write('POST', '/api/2/contacts/', {
          emails: [`grower${n}@example.org`],
          lists: ['allotment'],
        });
      await write('DELETE', '/api/2/lists/allotment/');
      const deleted = await newest('lists.delete');
      expect(deleted).toMatchObject({
        object: { type: 'list', id: String(list.id), list: 'allotment' },
        details: { members: 3 },
      });
      expect(deleted.changes).toEqual(
        expect.arrayContaining([
          { field: 'name', old: 'allotment' },
          { field: 'send_hold_message', old: false },
        ]),
      );
      // The list's whole history, found by its last name once it is gone, its first name included.
      expect(
        (await entries({ list: 'allotment' })).map((entry) => [entry.operation, entry.object.list]),
      ).toEqual([
        ['lists.delete', 'allotment'],
        ['lists.update', 'allotment'],
        ['lists.create', 'garden'],
      ]);
    });

    it('names the message a send archived, and a deleted message by subject and sender', async () => {
      await write('POST', '/api/2/lists/', { name: 'announce' });
      await write('POST', '/api/2/messages/', {
        list: 'announce',
        subject: 'Opening hours',
        content_plain: 'Nine to five.',
      });
      const sent = await newest('messages.send');
      expect(sent.object).toMatchObject({ type: 'message', list: 'announce' });
      expect(sent.object.id).toMatch(/^\d+$/);
      expect(sent.changes).toEqual([{ field: 'subject', new: 'Opening hours' }]);
      await write('DELETE', `/api/2/messages/${String(sent.object.id)}/`);
      expect(await newest('messages.delete')).toMatchObject({
        object: { type: 'message', id: sent.object.id, list: 'announce' },
        changes: expect.arrayContaining([{ field: 'subject', old: 'Opening hours' }]) as unknown,
      });
    });

    it('records a custom field defined, renamed and deleted (extension fields.*), the delete in its last step', async () => {
      const created = await write('POST', '/api/2/fields/', {
        name: 'Shoe size',
        identifier: 'shoe_size',
      });
      expect(await newest('fields.create')).toMatchObject({
        object: { type: 'custom_field', id: String(created.id) },
        changes: expect.arrayContaining([{ field: 'name', new: 'Shoe size' }]) as unknown,
      });
      await write('PUT', `/api/2/fields/${String(created.id)}/`, { name: 'Shoe' });
      expect((await newest('fields.update')).changes).toEqual([
        { field: 'name', old: 'Shoe size', new: 'Shoe' },
      ]);
      await write('DELETE', `/api/2/fields/${String(created.id)}/`);
      expect(await newest('fields.delete')).toMatchObject({
        object: { type: 'custom_field', id: String(created.id) },
        changes: expect.arrayContaining([{ field: 'name', old: 'Shoe' }]) as unknown,
      });
    });

    it('records an address whose bounces were cleared (extension bounces.clear)', async () => {
      const contact = await write('POST', '/api/2/contacts/', { emails: 'bouncy@audit.example' });
      const email = (contact.emails as { id: number }[])[0]?.id ?? 0;
      await insertBounceState(server.database.db, {
        accountId: server.account.id,
        emailId: email,
        tag: 'audit',
        now: clock.now(),
      });
      await write('POST', `/api/2/bounces/${String(email)}/clear/`);
      expect(await newest('bounces.clear')).toMatchObject({
        object: { type: 'email', id: String(email) },
        changes: [{ field: 'bounces', old: 'recorded', new: null }],
      });
    });

    it('records administrators with a set password and a retrieved key as secrets, never their values', async () => {
      const created = await write('POST', '/api/2/users/', {
        username: 'clerk@example.org',
        password: 'a long enough password',
        permissions: ['contact'],
      });
      expect((await newest('users.create')).changes).toEqual(
        expect.arrayContaining([
          { field: 'username', new: 'clerk@example.org' },
          { field: 'permissions', new: ['contact'] },
          { field: 'password', secret: true, new: true },
        ]),
      );
      await write('PUT', `/api/2/users/${String(created.id)}/`, {
        permissions: ['contact', 'audit'],
      });
      expect((await newest('users.update')).changes).toEqual([
        { field: 'permissions', old: ['contact'], new: ['contact', 'audit'] },
      ]);
      const key = await write('POST', '/api/2/users/', {
        description: 'Nightly export',
        permissions: ['list'],
      });
      const retrieved = await write('PUT', `/api/2/users/${String(key.id)}/`, {
        get_key: true,
        expiry_months: 3,
      });
      const entry = await newest('users.retrieveKey');
      expect(entry.object).toEqual({ type: 'administrator', id: String(key.id), list: null });
      expect(entry.changes).toEqual([
        { field: 'key', secret: true, new: true },
        { field: 'key_expiry', old: null, new: retrieved.expiry },
      ]);
      // The key itself acts, named by its description.
      await write('POST', '/api/2/lists/', { name: 'by-key' }, String(retrieved.key));
      expect((await newest('lists.create')).actor).toEqual({
        type: 'administrator',
        id: key.id,
        name: 'Nightly export',
      });
      await write('DELETE', `/api/2/users/${String(created.id)}/`);
      expect(await newest('users.delete')).toMatchObject({
        object: { type: 'administrator', id: String(created.id) },
      });
    });

    it("keeps the group's accounts in the group's log, for a global key without account_id", async () => {
      const account = await write(
        'POST',
        '/api/2/accounts/',
        { name: 'branch', description: 'The branch office' },
        server.globalKey,
      );
      await write(
        'PUT',
        `/api/2/accounts/${String(account.id)}/`,
        { description: 'The new branch' },
        server.globalKey,
      );
      await write('DELETE', `/api/2/accounts/${String(account.id)}/`, undefined, server.globalKey);
      const group = await entries(
        { object_type: 'account', object_id: String(account.id) },
        server.globalKey,
      );
      expect(
        group.map((entry) => [
          entry.operation,
          entry.changes.find((c) => c.field === 'description'),
        ]),
      ).toEqual([
        ['accounts.delete', { field: 'description', old: 'The new branch' }],
        [
          'accounts.update',
          { field: 'description', old: 'The branch office', new: 'The new branch' },
        ],
        ['accounts.create', { field: 'description', new: 'The branch office' }],
      ]);
      expect(group[0]?.details).toEqual({ contacts: 0, lists: 0 });
      // Not in an account's log.
      expect(await entries({ object_type: 'account' })).toEqual([]);
    });

    it("keeps an account's own superadmin's change of it in the account's log, and the group's", async () => {
      const id = String(server.account.id);
      const before = (await server.request('GET', `/api/2/accounts/${id}/`)).json as {
        description: string;
      };
      await write('PUT', `/api/2/accounts/${id}/`, { description: 'Changed from within' });
      const change = {
        operation: 'accounts.update',
        actor: { type: 'administrator', id: await administratorId(server.accountKey) },
        object: { type: 'account', id },
        changes: [{ field: 'description', old: before.description, new: 'Changed from within' }],
      };
      expect(await entries({ object_type: 'account' })).toMatchObject([change]);
      expect(
        await entries({ object_type: 'account', object_id: id }, server.globalKey),
      ).toMatchObject([change]);
      await write(
        'PUT',
        `/api/2/accounts/${id}/`,
        { description: before.description },
        server.globalKey,
      );
    });

    it('records nothing for a write that was refused', async () => {
      const before = await entries({});
      const refused = await server.request('POST', '/api/2/contacts/', {
        form: { emails: ['not an address'] },
      });
      expect(refused.status).toBe(400);
      const missing = await server.request('DELETE', '/api/2/lists/no-such-list/');
      expect(missing.status).toBe(404);
      expect(await entries({})).toEqual(before);
    });
  });

  describe('the moderators’ queues', () => {
    it('records each held message approved or rejected, one entry each, bulk too', async () => {
      await write('POST', '/api/2/lists/', { name: 'moderated' });
      const hold = (subject: string) =>
        insertHeldMessage(server.database.db, {
          accountId: server.account.id,
          list: 'moderated',
          tag: 'acme',
          subject,
          now: clock.now(),
        });
      const approved = await hold('Approve me');
      const outcome = await write('POST', `/api/2/held/${approved}/approve/`);
      expect(await newest('held.approve')).toMatchObject({
        actor: { type: 'administrator', id: await administratorId(server.accountKey) },
        object: { type: 'held_message', id: String(approved), list: 'moderated' },
        details: { subject: 'Approve me', message: outcome.message, rule: 'hold-all' },
      });
      const [a, b] = [await hold('Spam one'), await hold('Spam two')];
      await write('POST', '/api/2/held/bulk/', {
        action: 'reject',
        ids: [a, b],
        reason: 'Off topic',
      });
      const rejected = await entries({ operation: 'held.reject' });
      expect(rejected.map((entry) => [entry.object.id, entry.details.reason])).toEqual([
        [String(b), 'Off topic'],
        [String(a), 'Off topic'],
      ]);
    });

    it('records a join request approved, and the join it made, by the moderator', async () => {
      await write('POST', '/api/2/lists/', { name: 'club' });
      const request = await insertWaitingRequest(server.database.db, {
        accountId: server.account.id,
        list: 'club',
        address: 'joiner@example.org',
        now: clock.now(),
      });
      await write('POST', `/api/2/requests/${request}/approve/`);
      const moderator = { type: 'administrator', id: await administratorId(server.accountKey) };
      expect(await newest('requests.approve')).toMatchObject({
        actor: moderator,
        object: { type: 'request', id: String(request), list: 'club' },
        details: { kind: 'join', address: 'joiner@example.org' },
      });
      expect(await newest('member.join')).toMatchObject({
        actor: moderator,
        address: '192.0.2.10',
        object: { type: 'membership', list: 'club' },
        details: { address: 'joiner@example.org', new_contact: true, request },
      });
    });
  });

  describe("the members' workflow", () => {
    it('records a request, its confirmation and the join by the address, from its own address, and a leave', async () => {
      await write('POST', '/api/2/lists/', {
        name: 'open-club',
        subscriptions: 'open',
        unsubscriptions: 'open',
      });
      const list = `open-club@${DOMAIN}`;
      expect(
        (await people.fill(list, 'join', 'Walker@Example.org', { remoteAddress: '203.0.113.50' }))
          .status,
      ).toBe(200);
      const asked = await newest('member.ask');
      expect(asked).toMatchObject({
        actor: { type: 'address', id: null, name: 'Walker@Example.org' },
        address: '203.0.113.50',
        service: 'web',
        object: { type: 'request', list: 'open-club' },
        details: { kind: 'join', address: 'Walker@Example.org', source: 'web' },
      });
      const confirm = linkIn(
        (await mailsTo(server, 'Walker@Example.org'))[0]?.body ?? '',
        'confirm',
      );
      expect((await people.post('POST', confirm, { remoteAddress: '203.0.113.51' })).status).toBe(
        200,
      );
      expect(await newest('member.join')).toMatchObject({
        actor: { type: 'address', name: 'Walker@Example.org' },
        address: '203.0.113.51',
        service: 'web',
        object: { type: 'membership', list: 'open-club' },
        details: { address: 'Walker@Example.org', new_contact: true },
      });
      // The actor filter finds the address, whatever its case.
      expect(
        (await entries({ actor: 'walker@example.org' })).map((entry) => entry.operation),
      ).toEqual(['member.join', 'member.ask']);

      // SECURITY.md 43: one confirmation mail an hour per address.
      clock.advance(3_600_000);
      expect(
        (await people.fill(list, 'leave', 'walker@example.org', { remoteAddress: '203.0.113.52' }))
          .status,
      ).toBe(200);
      const mails = await mailsTo(server, 'Walker@Example.org');
      const leave = linkIn(mails.at(-1)?.body ?? '', 'confirm');
      expect((await people.post('POST', leave, { remoteAddress: '203.0.113.53' })).status).toBe(
        200,
      );
      expect(await newest('member.leave')).toMatchObject({
        actor: { type: 'address', name: 'Walker@Example.org' },
        object: { type: 'membership', list: 'open-club' },
      });
    });

    it('records a confirmation that now waits for a moderator', async () => {
      await write('POST', '/api/2/lists/', { name: 'vetted', subscriptions: 'open+confirm' });
      await people.fill(`vetted@${DOMAIN}`, 'join', 'hopeful@example.org', {
        remoteAddress: '203.0.113.60',
      });
      const confirm = linkIn(
        (await mailsTo(server, 'hopeful@example.org'))[0]?.body ?? '',
        'confirm',
      );
      await people.post('POST', confirm, { remoteAddress: '203.0.113.60' });
      expect(await newest('member.confirm')).toMatchObject({
        actor: { type: 'address', name: 'hopeful@example.org' },
        object: { type: 'request', list: 'vetted' },
        details: { kind: 'join', outcome: 'waiting' },
      });
    });
  });

  describe('the command line', () => {
    it("records each command's write as the system's, on the command line, with no secret", async () => {
      const input = { stdin: async () => 'a password of the CLI user\n', extensions: true, clock };
      const account = (await runCommand(
        ['account', 'create', 'cli-made'],
        server.database,
        input,
      )) as { id: number };
      const key = (await runCommand(
        ['key', 'create', '--account', 'cli-made', '--description', 'Backups'],
        server.database,
        input,
      )) as {
        id: number;
        key: string;
      };
      await runCommand(
        ['user', 'create', '--account', 'cli-made', '--username', 'op@example.org'],
        server.database,
        input,
      );
      await runCommand(
        ['field', 'create', '--account', 'cli-made', '--name', 'Shoe size'],
        server.database,
        input,
      );
      const client = (await runCommand(
        [
          'oauth-client',
          'create',
          '--name',
          'Reports',
          '--redirect-uri',
          'https://reports.example/cb',
        ],
        server.database,
        input,
      )) as { client_id: string; client_secret: string };

      const group = await entries({ actor: 'system' }, server.globalKey);
      expect(group.map((entry) => [entry.operation, entry.service, entry.object.type])).toEqual([
        ['oauth-clients.create', 'cli', 'oauth_client'],
        ['accounts.create', 'cli', 'account'],
      ]);
      expect(group[0]?.changes).toContainEqual({ field: 'client_secret', secret: true, new: true });
      const ofAccount = await entries({ actor: 'system' }, key.key);
      expect(ofAccount.map((entry) => [entry.operation, entry.object.type])).toEqual([
        ['fields.create', 'custom_field'],
        ['users.create', 'administrator'],
        ['users.create', 'administrator'],
      ]);
      expect(ofAccount[1]?.changes).toContainEqual({ field: 'password', secret: true, new: true });
      expect(ofAccount[2]?.changes).toContainEqual({ field: 'key', secret: true, new: true });
      const text = JSON.stringify([group, ofAccount]);
      for (const secret of [key.key, client.client_secret, 'a password of the CLI user'])
        expect(text).not.toContain(secret);
      expect(group[1]?.object.id).toBe(String(account.id));
    });
  });
});

/**
 * The dashboard's gateway proxies the API as the signed-in person, so the server sees the gateway's
 * address; it forwards the person's in X-Forwarded-For, which the server believes from a proxy
 * TRUST_PROXY names (SECURITY.md 18), and records (issue 26 item 4).
 */
describeEachDialect('the audit log behind the gateway', (dialect) => {
  for (const trusted of [true, false]) {
    it(`records ${trusted ? "the person's address when TRUST_PROXY names the gateway" : "the gateway's address when TRUST_PROXY does not"}`, async () => {
      const server = await startTestServer(dialect, trusted ? { trustProxy: '127.0.0.1' } : {});
      try {
        const upstream = await listening(server);
        const client = await registerClient(server);
        await createPerson(server);
        const inFront = await startGatewayInFront(upstream, client, {
          now: () => Date.now(),
          observe: () => {},
        });
        try {
          const signIn = await inFront.gateway.inject({
            method: 'POST',
            url: GATEWAY_PATHS.key,
            headers: { ...fromDashboard, 'content-type': 'application/json' },
            payload: JSON.stringify({ key: server.accountKey }),
            remoteAddress: '198.51.100.77',
          });
          expect(signIn.statusCode, signIn.body).toBe(200);
          const cookie = String([signIn.headers['set-cookie']].flat()[0]).split(';')[0] ?? '';
          const created = await inFront.gateway.inject({
            method: 'POST',
            url: '/api/2/lists/',
            headers: {
              ...fromDashboard,
              cookie,
              'content-type': 'application/x-www-form-urlencoded',
            },
            payload: 'name=through-the-gateway',
            remoteAddress: '198.51.100.77',
          });
          expect(created.statusCode, created.body).toBe(200);
          const log = AuditPage.parse(
            (await server.request('GET', '/api/2/audit/', { query: { operation: 'lists.create' } }))
              .json,
          );
          expect(log.data[0]?.address).toBe(trusted ? '198.51.100.77' : '127.0.0.1');
        } finally {
          await inFront.close();
        }
      } finally {
        await server.close();
      }
    });
  }
});
