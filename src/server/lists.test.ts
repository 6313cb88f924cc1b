import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ErrorBody } from '../api/primitives.ts';
import { Administrator, RetrievedKey } from '../api/schemas/administrator.ts';
import { LIST_SETTINGS, List } from '../api/schemas/list.ts';
import { verifyPassword } from './auth/keys.ts';
import { LIST_DEFAULTS, type ListSettings } from './repositories/lists.mapper.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './test/harness.ts';

/** Answers read through the contract's schemas: typed, and checked once more. */
const asList = (response: TestResponse) => List.parse(response.json);
const asLists = (response: TestResponse) =>
  z.strictObject({ data: z.array(List) }).parse(response.json).data;
const asError = (response: TestResponse) => ErrorBody.parse(response.json);
const idOf = (response: TestResponse) => Number(asList(response).id);

/** Every §2.4 setting with a value other than its default. */
const FULL: Omit<ListSettings, 'munge_from_always'> = {
  description: 'Weekly news',
  notes: 'owned by comms',
  maxlength: 512,
  truncate: 20000,
  subject_prefix: '[news]',
  moderator: 'mod@example.org',
  memberview: 'all-withemail',
  message_footer: '-- unsubscribe at any time',
  message_footer_html: '<p>unsubscribe</p>',
  message_fronter: 'Hello list',
  message_fronter_html: '<p>Hello list</p>',
  taboo_headers: ['^X-Spam: yes', 'Precedence: bulk'],
  taboo_body: ['viagra', 'crypto\\s+giveaway'],
  reply_to: 'replies@example.org',
  strip_attachments: true,
  subscriptions: 'open+confirm',
  unsubscriptions: 'closed',
  hold_automated: false,
  hold_replies: true,
  restrict_post_allowed_emails: ['boss@example.org', 'deputy@example.org'],
  restrict_post_banned_emails: ['troll@example.org'],
  restrict_post_lists: ['staff'],
  moderate: 14,
  message_rejections: 3,
  notify_approval: 1,
  welcome_message: 'Welcome aboard',
  welcome_message_subject: 'Welcome',
  confirmation_subject: 'Please confirm',
  confirmation_message: 'Click to confirm',
  hold_message: 'Held: $SUBJECT on $LISTNAME',
  hold_subject: 'Held on $LISTNAME',
  send_hold_message: false,
  reject_message: 'Rejected: $SUBJECT on $LISTNAME',
  reject_subject: 'Rejected on $LISTNAME',
  send_reject_message: false,
  archive_enabled: false,
  archive_spammode: false,
  archive_protected: true,
  archive_memberview: true,
  archive_index_noshow: true,
};

/** A second set of values, different from FULL and from the defaults wherever the type allows. */
const OTHER: Omit<ListSettings, 'munge_from_always'> = {
  ...FULL,
  description: 'Daily digest',
  notes: '',
  maxlength: 0,
  truncate: null,
  subject_prefix: '',
  moderator: 'other@example.org',
  memberview: 'noemail',
  message_footer: 'bye',
  message_footer_html: '<p>bye</p>',
  message_fronter: '',
  message_fronter_html: '',
  taboo_headers: [],
  taboo_body: ['only-this'],
  reply_to: null,
  strip_attachments: false,
  subscriptions: null,
  unsubscriptions: 'open',
  hold_automated: true,
  hold_replies: false,
  restrict_post_allowed_emails: [],
  restrict_post_banned_emails: ['a@example.org', 'b@example.org'],
  restrict_post_lists: [],
  moderate: 1,
  message_rejections: null,
  notify_approval: 0,
  welcome_message: '',
  welcome_message_subject: '',
  confirmation_subject: 'Confirm again',
  confirmation_message: '',
  hold_message: '',
  hold_subject: '',
  send_hold_message: true,
  reject_message: '',
  reject_subject: '',
  send_reject_message: true,
  archive_enabled: true,
  archive_spammode: true,
  archive_protected: false,
  archive_memberview: false,
  archive_index_noshow: false,
};

/** A contact with one address on each given list, written straight to the database. */
async function addMember(
  server: TestServer,
  listIds: number[],
  accountId = server.account.id,
): Promise<number> {
  const db = server.database.db;
  const contact = await db
    .insertInto('contacts')
    .values({ account_id: accountId, created: server.clock.now().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const email = `member${contact.id}@example.org`;
  await db
    .insertInto('emails')
    .values({ account_id: accountId, contact_id: contact.id, email, email_key: email })
    .execute();
  for (const list_id of listIds) {
    await db
      .insertInto('memberships')
      .values({ account_id: accountId, contact_id: contact.id, list_id, digest: null })
      .execute();
  }
  return contact.id;
}

describeEachDialect('lists (spec §2.4, §4.4)', (dialect) => {
  let server: TestServer;
  const url = (name = '') => `/api/2/lists/${name ? `${encodeURIComponent(name)}/` : ''}`;
  const create = (form: Record<string, unknown>, key?: string) =>
    server.request('POST', url(), { form, key });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    expect((await create({ name: 'staff' })).status).toBe(200);
  });
  afterAll(() => server.close());

  describe('create and read', () => {
    it('creates a list from its name alone, with the documented defaults', async () => {
      const before = server.clock.now().getTime();
      const response = await create({ name: 'plain' });
      expect(response.status).toBe(200);
      const { id, created, ...rest } = asList(response);
      expect(typeof id).toBe('number');
      // The server's time (its clock, not the machine's), to the second.
      expect(Date.parse(created)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(created)).toBeLessThanOrEqual(server.clock.now().getTime());
      expect(rest).toEqual({ name: 'plain', contacts: [], ...LIST_DEFAULTS });
      expect(response.json).not.toHaveProperty('archive_password');
    });

    it('round-trips every §2.4 setting through POST and GET', async () => {
      // The fixture covers the contract's whole list of settings: a new setting fails here first.
      expect(Object.keys(FULL).sort()).toEqual([...LIST_SETTINGS].sort());
      const created = await create({ name: 'full', ...FULL });
      expect(created.status).toBe(200);
      expect(created.json).toMatchObject({ name: 'full', contacts: [], ...FULL });
      const read = await server.request('GET', url('full'));
      expect(read.status).toBe(200);
      expect(read.json).toEqual(created.json);
    });

    it('round-trips every §2.4 setting through PUT and GET', async () => {
      const updated = await server.request('PUT', url('full'), { form: OTHER });
      expect(updated.status).toBe(200);
      expect(updated.json).toMatchObject({ name: 'full', ...OTHER });
      expect((await server.request('GET', url('full'))).json).toEqual(updated.json);
    });

    it('takes the munge_from_always extension on POST and PUT, false by default (issue 26 item 2)', async () => {
      const created = await create({ name: 'munged', munge_from_always: true });
      expect(created.status, created.body).toBe(200);
      expect(asList(created).munge_from_always).toBe(true);
      const updated = await server.request('PUT', url('munged'), {
        form: { munge_from_always: false, subject_prefix: '[m]' },
      });
      expect(updated.status, updated.body).toBe(200);
      expect(asList(await server.request('GET', url('munged')))).toMatchObject({
        munge_from_always: false,
        subject_prefix: '[m]',
      });
      const refused = await server.request('PUT', url('munged'), {
        form: { munge_from_always: ['1', '0'] },
      });
      expect(refused.status).toBe(400);
    });

    it('changes only the supplied fields on PUT (spec §1 rule 6)', async () => {
      await create({ name: 'partial', ...FULL });
      const before = asList(await server.request('GET', url('partial')));
      const updated = await server.request('PUT', url('partial'), {
        form: { subject_prefix: '[p]', moderate: 0 },
      });
      expect(updated.status).toBe(200);
      expect(updated.json).toEqual({ ...before, subject_prefix: '[p]', moderate: 0 });
    });

    it('clears nullable settings with an empty value and arrays with one empty key', async () => {
      await create({ name: 'nulls', ...FULL });
      const response = await server.request('PUT', url('nulls'), {
        body: 'truncate=&reply_to=&subscriptions=&unsubscriptions=&message_rejections=&notify_approval=&taboo_body=&restrict_post_lists=',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        truncate: null,
        reply_to: null,
        subscriptions: null,
        unsubscriptions: null,
        message_rejections: null,
        notify_approval: null,
        taboo_body: [],
        restrict_post_lists: [],
      });
    });

    it('reads booleans the spec §1 rule 4 way', async () => {
      const response = await server.request('POST', url(), {
        body: 'name=bools&strip_attachments=yes&hold_automated=0&archive_enabled=&hold_replies=1',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        strip_attachments: true,
        hold_automated: false,
        archive_enabled: false,
        hold_replies: true,
      });
    });

    it('accepts multipart bodies', async () => {
      const boundary = 'XyZ';
      const part = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const body = `${part('name', 'multi')}${part('taboo_body', 'a')}${part('taboo_body', 'b')}--${boundary}--\r\n`;
      const response = await server.request('POST', url(), {
        body,
        contentType: `multipart/form-data; boundary=${boundary}`,
      });
      expect(response.status).toBe(200);
      expect(asList(response).taboo_body).toEqual(['a', 'b']);
    });

    it('accepts a name of exactly 64 characters with every allowed character', async () => {
      const name = `Ab0_.-${'x'.repeat(58)}`;
      expect(name).toHaveLength(64);
      const response = await create({ name });
      expect(response.status).toBe(200);
      expect(asList(await server.request('GET', url(name))).name).toBe(name);
    });

    it('answers get all as an object holding the lists by name, with their member contacts', async () => {
      const news = await create({ name: 'members-a' });
      const other = await create({ name: 'members-b' });
      const first = await addMember(server, [idOf(news), idOf(other)]);
      const second = await addMember(server, [idOf(news)]);
      const response = await server.request('GET', url());
      expect(response.status).toBe(200);
      expect(Object.keys(z.looseObject({}).parse(response.json))).toEqual(['data']);
      const lists = asLists(response);
      const names = lists.map((list) => list.name);
      expect(names).toEqual([...names].sort());
      const byName = new Map(lists.map((list) => [list.name, list]));
      expect(byName.get('members-a')).toMatchObject({ contacts: [first, second] });
      expect(byName.get('members-b')).toMatchObject({ contacts: [first] });
      expect(asList(await server.request('GET', url('members-a'))).contacts).toEqual([
        first,
        second,
      ]);
      for (const list of lists) expect(list).not.toHaveProperty('archive_password');
      expect(response.headers['x-ratelimit-remaining']).toBeDefined();
    });

    it('names member contacts by their ccid on a ccid-enabled account (spec §2.1)', async () => {
      const account = await server.createAccount(`ccid-lists-${dialect}`, { ccid: true });
      const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
      expect((await create({ name: 'crm' }, key)).status).toBe(200);
      for (const ccid of ['crm-2', 'crm-1']) {
        const posted = await server.request('POST', '/api/2/contacts/', {
          key,
          form: { ccid, emails: [`${ccid}@example.org`], lists: ['crm'] },
        });
        expect(posted.status, posted.body).toBe(200);
      }
      const expected = ['crm-2', 'crm-1'];
      expect(asList(await server.request('GET', url('crm'), { key })).contacts).toEqual(expected);
      expect(
        asLists(await server.request('GET', url(), { key })).find((list) => list.name === 'crm')
          ?.contacts,
      ).toEqual(expected);
      const renamed = await server.request('PUT', url('crm'), {
        key,
        form: { description: 'Customers' },
      });
      expect(asList(renamed).contacts).toEqual(expected);
    });
  });

  describe('validation (400)', () => {
    const refused: [string, Record<string, unknown>][] = [
      ['no name', { description: 'x' }],
      ['an empty name', { name: '' }],
      ['a name over 64 characters', { name: 'x'.repeat(65) }],
      ['a name with a space', { name: 'two words' }],
      ['a name with a slash', { name: 'a/b' }],
      ['moderate over 15', { name: 'bad1', moderate: 16 }],
      ['a negative moderate', { name: 'bad2', moderate: -1 }],
      ['moderate as text', { name: 'bad3', moderate: 'all' }],
      ['an unknown memberview', { name: 'bad4', memberview: 'everyone' }],
      ['an unknown subscriptions mode', { name: 'bad5', subscriptions: 'free' }],
      ['an unknown unsubscriptions mode', { name: 'bad6', unsubscriptions: 'free' }],
      ['message_rejections 4', { name: 'bad7', message_rejections: 4 }],
      ['notify_approval 2', { name: 'bad8', notify_approval: 2 }],
      ['an invalid taboo regular expression', { name: 'bad9', taboo_body: ['(unclosed'] }],
      ['an empty taboo rule', { name: 'bad10', taboo_headers: ['ok', ''] }],
      ['an invalid reply_to', { name: 'bad11', reply_to: 'not-an-address' }],
      ['a moderator that is not an address', { name: 'bad16', moderator: 'the board' }],
      // SECURITY.md 37: it becomes the notice's recipient, in the envelope and the To header.
      ['a moderator with a line break', { name: 'bad17', moderator: 'mod@example.org\r\nBcc: victim@example.org' }],
      ['an invalid allowed address', { name: 'bad12', restrict_post_allowed_emails: ['nope'] }],
      ['a truncate of 0', { name: 'bad13', truncate: 0 }],
      ['a negative maxlength', { name: 'bad14', maxlength: -5 }],
      ['a fractional maxlength', { name: 'bad15', maxlength: 1.5 }],
      ['an unknown posting list', { name: 'bad20', restrict_post_lists: ['nowhere'] }],
      ['a boolean given twice', { name: 'bad21', strip_attachments: ['1', '0'] }],
    ];
    for (const [what, form] of refused) {
      it(`refuses ${what}`, async () => {
        const before = asLists(await server.request('GET', url())).length;
        const response = await create(form);
        expect(response.status).toBe(400);
        expect(asError(response).message).not.toBe('');
        expect(asLists(await server.request('GET', url())).length).toBe(before);
      });
    }

    it('ignores unknown and read-only fields, naming them (SECURITY.md 17)', async () => {
      const response = await create({ name: 'extras', colour: 'red', id: 987654, created: '2020-01-01', contacts: [1] });
      const list = asList(response);
      expect(list).toMatchObject({ name: 'extras', contacts: [] });
      expect(list).not.toHaveProperty('colour');
      expect(list.id).not.toBe(987654);
      expect(list.created).not.toBe('2020-01-01');
      expect(response.headers['x-ignored-fields']).toBe('colour, id, created, contacts');
    });

    it('refuses a duplicate name', async () => {
      await create({ name: 'dupe' });
      const response = await create({ name: 'dupe' });
      expect(response.status).toBe(400);
      expect(asError(response).message).toMatch(/already exists/);
    });

    it('refuses the same invalid values on PUT, leaving the list unchanged', async () => {
      await create({ name: 'guarded', ...FULL });
      const before = asList(await server.request('GET', url('guarded')));
      for (const form of [{ moderate: 99 }, { memberview: 'x' }, { name: 'bad name' }]) {
        const response = await server.request('PUT', url('guarded'), { form });
        expect(response.status, JSON.stringify(form)).toBe(400);
      }
      expect((await server.request('GET', url('guarded'))).json).toEqual(before);
      // A list PUT back as it was read changes nothing: its read-only fields are ignored.
      const back = await server.request('PUT', url('guarded'), { body: JSON.stringify({ ...before, bogus: 1 }), contentType: 'application/json' });
      expect(back.json).toEqual(before);
      expect(back.headers['x-ignored-fields']).toBe('id, created, contacts, bogus');
    });

    it('lets restrict_post_lists name the list itself and other lists of the account', async () => {
      const response = await create({
        name: 'selfpost',
        restrict_post_lists: ['selfpost', 'staff'],
        moderate: 6,
      });
      expect(response.status).toBe(200);
      expect(asList(response).restrict_post_lists).toEqual(['selfpost', 'staff']);
      const missing = await server.request('PUT', url('selfpost'), {
        form: { restrict_post_lists: ['staff', 'ghost'] },
      });
      expect(missing.status).toBe(400);
      expect(asError(missing).message).toMatch(/ghost/);
    });
  });

  describe('archive_password (write-only)', () => {
    const storedHash = async (name: string) =>
      (
        await server.database.db
          .selectFrom('lists')
          .select('archive_password_hash')
          .where('account_id', '=', server.account.id)
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).archive_password_hash;

    it('stores only a hash and never returns it', async () => {
      const response = await create({
        name: 'archived',
        archive_protected: true,
        archive_password: 'open sesame',
      });
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.json)).not.toMatch(/sesame|archive_password/);
      const hash = await storedHash('archived');
      expect(hash).toMatch(/^scrypt\$/);
      expect(await verifyPassword('open sesame', hash ?? '')).toBe(true);
      const read = await server.request('GET', url('archived'));
      expect(read.body).not.toMatch(/archive_password|scrypt/);
      expect((await server.request('GET', url())).body).not.toMatch(/archive_password|scrypt/);
    });

    it('keeps the password when a PUT does not name it, replaces it, and clears it when blank', async () => {
      const first = await storedHash('archived');
      await server.request('PUT', url('archived'), { form: { description: 'x' } });
      expect(await storedHash('archived')).toBe(first);
      await server.request('PUT', url('archived'), { form: { archive_password: 'new secret' } });
      const second = await storedHash('archived');
      expect(second).not.toBe(first);
      expect(await verifyPassword('new secret', second ?? '')).toBe(true);
      const cleared = await server.request('PUT', url('archived'), {
        form: { archive_password: '' },
      });
      expect(cleared.status).toBe(200);
      expect(await storedHash('archived')).toBeNull();
    });

    it('stores no password for a list created without one or with a blank one', async () => {
      await create({ name: 'nopass', archive_password: '   ' });
      expect(await storedHash('nopass')).toBeNull();
    });
  });

  describe('rename', () => {
    it('renames with name, keeping members, and frees the old name', async () => {
      const list = await create({ name: 'old-name', description: 'kept' });
      const member = await addMember(server, [idOf(list)]);
      const response = await server.request('PUT', url('old-name'), { form: { name: 'new-name' } });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        id: idOf(list),
        name: 'new-name',
        description: 'kept',
        contacts: [member],
      });
      expect((await server.request('GET', url('old-name'))).status).toBe(404);
      expect(asList(await server.request('GET', url('new-name'))).id).toBe(idOf(list));
      expect((await create({ name: 'old-name' })).status).toBe(200);
    });

    it('refuses a name another list of the account holds', async () => {
      await create({ name: 'taken-a' });
      await create({ name: 'taken-b' });
      const response = await server.request('PUT', url('taken-a'), { form: { name: 'taken-b' } });
      expect(response.status).toBe(400);
      expect(asError(response).message).toMatch(/already exists/);
      expect((await server.request('GET', url('taken-a'))).status).toBe(200);
    });

    it('accepts its own name as a no-op', async () => {
      await create({ name: 'same' });
      expect((await server.request('PUT', url('same'), { form: { name: 'same' } })).status).toBe(
        200,
      );
    });

    it("follows the rename in other lists' posting restrictions and in administrators' limits", async () => {
      await create({ name: 'src' });
      await create({ name: 'poster', restrict_post_lists: ['src', 'staff'], moderate: 6 });
      const user = await server.request('POST', '/api/2/users/', {
        form: {
          username: 'limited-rename@example.org',
          permissions: ['list', 'limit_lists'],
          limit_lists: ['src'],
        },
      });
      expect(user.status).toBe(200);
      expect((await server.request('PUT', url('src'), { form: { name: 'dst' } })).status).toBe(200);
      expect(asList(await server.request('GET', url('poster'))).restrict_post_lists).toEqual([
        'dst',
        'staff',
      ]);
      const userId = String(Administrator.parse(user.json).id);
      expect(
        Administrator.parse((await server.request('GET', `/api/2/users/${userId}/`)).json)
          .limit_lists,
      ).toEqual(['dst']);
    });
  });

  describe('delete', () => {
    it('deletes a list with its memberships and messages', async () => {
      const list = await create({ name: 'doomed' });
      const member = await addMember(server, [idOf(list)]);
      const sent = await server.request('POST', '/api/2/messages/', {
        form: { list: 'doomed', content_plain: 'bye' },
      });
      expect(sent.status).toBe(200);
      const response = await server.request('DELETE', url('doomed'));
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ success: 1 });
      expect((await server.request('GET', url('doomed'))).status).toBe(404);
      const db = server.database.db;
      expect(
        await db.selectFrom('memberships').selectAll().where('list_id', '=', idOf(list)).execute(),
      ).toEqual([]);
      expect(
        await db.selectFrom('messages').selectAll().where('list_id', '=', idOf(list)).execute(),
      ).toEqual([]);
      expect(
        await db
          .selectFrom('outbox')
          .selectAll()
          .where('address', '=', `member${member}@example.org`)
          .execute(),
      ).toEqual([]);
      // The contact stays: it is only no longer a member.
      expect(
        await db.selectFrom('contacts').select('id').where('id', '=', member).executeTakeFirst(),
      ).toEqual({ id: member });
    });

    it("drops the deleted list from other lists' posting restrictions", async () => {
      await create({ name: 'gone-soon' });
      await create({ name: 'refers', restrict_post_lists: ['gone-soon', 'staff'] });
      expect((await server.request('DELETE', url('gone-soon'))).status).toBe(200);
      expect(asList(await server.request('GET', url('refers'))).restrict_post_lists).toEqual([
        'staff',
      ]);
    });

    it('answers 404 for an unknown list, twice deleted, or an impossible name', async () => {
      for (const name of ['never-was', 'bad name', 'x'.repeat(65)]) {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const response = await server.request(
            method,
            url(name),
            method === 'PUT' ? { form: { description: 'x' } } : {},
          );
          expect(response.status, `${method} ${name}`).toBe(404);
          expect(response.json).toEqual({ is_error: true, message: 'List not found' });
        }
      }
    });
  });

  describe('limit_lists principals (spec §2.6)', () => {
    let key: string;
    beforeAll(async () => {
      await create({ name: 'mine' });
      await create({ name: 'theirs' });
      const user = await server.request('POST', '/api/2/users/', {
        form: {
          username: 'limited-lists@example.org',
          permissions: ['list', 'limit_lists'],
          limit_lists: ['mine', 'future'],
        },
      });
      const userId = String(Administrator.parse(user.json).id);
      key = RetrievedKey.parse(
        (await server.request('PUT', `/api/2/users/${userId}/`, { form: { get_key: true } })).json,
      ).key;
    });

    it('sees only its lists', async () => {
      const all = await server.request('GET', url(), { key });
      expect(all.status).toBe(200);
      expect(asLists(all).map((list) => list.name)).toEqual(['mine']);
      expect((await server.request('GET', url('mine'), { key })).status).toBe(200);
      expect((await server.request('GET', url('theirs'), { key })).status).toBe(404);
    });

    // SECURITY.md 33 (issue 16 finding 8): a list outside its limit answers as a missing one.
    it('cannot write other lists, nor create one outside its limit', async () => {
      const hidden = await server.request('PUT', url('theirs'), { key, form: { description: 'x' } });
      expect(hidden.status).toBe(404);
      expect(hidden.body).not.toMatch(/theirs/);
      expect((await server.request('DELETE', url('theirs'), { key })).status).toBe(404);
      const missing = await server.request('PUT', url('nonexistent'), { key, form: { description: 'x' } });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual(hidden.json);
      expect((await create({ name: 'elsewhere' }, key)).status).toBe(403);
      expect(
        (await server.request('PUT', url('mine'), { key, form: { name: 'escape' } })).status,
      ).toBe(403);
      expect(asList(await server.request('GET', url('theirs'))).description).toBe('');
    });

    it('may create a list its limit names, and name only its own lists as posters', async () => {
      expect((await create({ name: 'future' }, key)).status).toBe(200);
      const response = await server.request('PUT', url('mine'), {
        key,
        form: { restrict_post_lists: ['theirs'] },
      });
      expect(response.status).toBe(400);
      expect(
        (
          await server.request('PUT', url('mine'), {
            key,
            form: { restrict_post_lists: ['future'] },
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('permissions and accounts', () => {
    it('lets readers read but not write, and refuses keys without a list permission', async () => {
      const reader = await server.createKey({
        accountId: server.account.id,
        permissions: ['membership'],
      });
      expect((await server.request('GET', url(), { key: reader })).status).toBe(200);
      expect((await server.request('GET', url('staff'), { key: reader })).status).toBe(200);
      expect((await create({ name: 'nope' }, reader)).status).toBe(403);
      expect((await server.request('DELETE', url('staff'), { key: reader })).status).toBe(403);
      const settings = await server.createKey({
        accountId: server.account.id,
        permissions: ['list_settings'],
      });
      expect(
        (await server.request('PUT', url('staff'), { key: settings, form: { notes: 'tuned' } }))
          .status,
      ).toBe(200);
      expect((await create({ name: 'nope' }, settings)).status).toBe(403);
      const billing = await server.createKey({
        accountId: server.account.id,
        permissions: ['billing'],
      });
      expect((await server.request('GET', url(), { key: billing })).status).toBe(403);
    });

    it('keeps the lists of each account apart', async () => {
      const other = await server.createAccount('lists-other');
      const otherKey = await server.createKey({ accountId: other.id, permissions: ['superadmin'] });
      expect((await server.request('GET', url(), { key: otherKey })).json).toEqual({ data: [] });
      expect((await server.request('GET', url('staff'), { key: otherKey })).status).toBe(404);
      expect((await server.request('DELETE', url('staff'), { key: otherKey })).status).toBe(404);
      // The same name is free in another account.
      expect((await create({ name: 'staff' }, otherKey)).status).toBe(200);
      const viaGlobal = await server.request('GET', `${url()}?account_id=${other.id}`, {
        key: server.globalKey,
      });
      expect(asLists(viaGlobal).map((list) => list.name)).toEqual(['staff']);
      expect(
        (await server.request('GET', `${url()}?account_id=${server.account.id}`, { key: otherKey }))
          .status,
      ).toBe(403);
    });
  });
});
