import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../api/primitives.ts';
import { Administrator, RetrievedKey } from '../api/schemas/administrator.ts';
import { List } from '../api/schemas/list.ts';
import { Message, MessagePage } from '../api/schemas/message.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './test/harness.ts';

/** Answers read through the contract's schemas: typed, and checked once more. */
const asPage = (response: TestResponse) => MessagePage.parse(response.json);
const asMessage = (response: TestResponse) => Message.parse(response.json);
const asError = (response: TestResponse) => ErrorBody.parse(response.json);
const idsOf = (messages: readonly Message[]) => messages.map((m) => Number(m.id));
const ANY_NUMBER: unknown = expect.any(Number);

interface Member {
  contactId: number;
  emails: { id: number; email: string; paused: boolean }[];
}

/** A contact with the given addresses, member of the given lists, written straight to the database. */
async function addMember(
  server: TestServer,
  listIds: number[],
  addresses: { email: string; paused?: boolean }[],
  accountId = server.account.id,
): Promise<Member> {
  const db = server.database.db;
  const contact = await db
    .insertInto('contacts')
    .values({ account_id: accountId, created: server.clock.now().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const emails = [];
  for (const { email, paused = false } of addresses) {
    const row = await db
      .insertInto('emails')
      .values({
        account_id: accountId,
        contact_id: contact.id,
        email,
        email_key: email.toLowerCase(),
        paused: paused ? 1 : 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    emails.push({ id: row.id, email, paused });
  }
  for (const list_id of listIds) {
    await db
      .insertInto('memberships')
      .values({ account_id: accountId, contact_id: contact.id, list_id, digest: null })
      .execute();
  }
  return { contactId: contact.id, emails };
}

/** A key of a new administrator with these permissions and lists, made through the API (spec §4.6). */
async function limitedKey(
  server: TestServer,
  username: string,
  permissions: string[],
  limitLists: string[],
): Promise<string> {
  const user = await server.request('POST', '/api/2/users/', {
    form: { username, permissions, limit_lists: limitLists },
  });
  const id = String(Administrator.parse(user.json).id);
  return RetrievedKey.parse(
    (await server.request('PUT', `/api/2/users/${id}/`, { form: { get_key: true } })).json,
  ).key;
}

describeEachDialect('messages (spec §2.5, §4.5)', (dialect) => {
  let server: TestServer;
  let newsId: number;
  let otherId: number;
  let alice: Member;
  let bob: Member;
  const send = (form: Record<string, unknown>, key?: string) =>
    server.request('POST', '/api/2/messages/', { form, key });
  const page = (query: Record<string, unknown> = {}, key?: string) =>
    server.request('GET', '/api/2/messages/', { query, key });
  const latest = async (): Promise<Message> => {
    const [message] = asPage(await page({ limit: 1 })).data;
    if (!message) throw new Error('no message');
    return message;
  };
  const createList = async (form: Record<string, unknown>) =>
    Number(List.parse((await server.request('POST', '/api/2/lists/', { form })).json).id);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    newsId = await createList({
      name: 'news',
      moderate: 1,
      restrict_post_banned_emails: ['boss@example.org'],
    });
    otherId = await createList({ name: 'other' });
    alice = await addMember(
      server,
      [newsId],
      [{ email: 'alice@example.org' }, { email: 'alice@work.example', paused: true }],
    );
    bob = await addMember(
      server,
      [newsId, otherId],
      [{ email: 'Bob@Example.org' }, { email: 'bob2@example.org' }],
    );
    await addMember(server, [otherId], [{ email: 'carol@example.org' }]);
    await addMember(server, [], [{ email: 'nobody@example.org' }]);
  });
  afterAll(() => server.close());

  describe('send', () => {
    it('answers only the success object and archives the message with generated HTML', async () => {
      const before = Math.floor(server.clock.now().getTime() / 1000);
      const response = await send({
        list: 'news',
        subject: 'Hello',
        from_phrase: 'Boss',
        from_address: 'boss@example.org',
        content_plain: 'Hi <all>\n\nBye',
      });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ success: 1 });
      const message = await latest();
      expect(message).toEqual({
        id: ANY_NUMBER,
        subject: 'Hello',
        from_phrase: 'Boss',
        from_address: 'boss@example.org',
        list: 'news',
        time: ANY_NUMBER,
        message_id: message.message_id,
        thread_id: message.id,
        content_plain: 'Hi <all>\n\nBye',
        content_html: '<p>Hi &lt;all&gt;</p>\n<p>Bye</p>',
        parent: null,
      });
      expect(message.message_id).toMatch(
        /^<[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@listkeeper\.local>$/,
      );
      expect(message.time).toBeGreaterThanOrEqual(before);
      expect(message.time).toBeLessThanOrEqual(Math.floor(server.clock.now().getTime() / 1000));
    });

    it('queues one pending delivery per member address, paused addresses and non-members skipped', async () => {
      await send({ list: 'news', content_plain: 'deliver me' });
      const message = await latest();
      const rows = await server.database.db
        .selectFrom('outbox')
        .selectAll()
        .where('message_id', '=', Number(message.id))
        .orderBy('email_id')
        .execute();
      const expected = [alice.emails[0], bob.emails[0], bob.emails[1]].map((email) => ({
        email_id: email?.id,
        address: email?.email,
      }));
      expect(rows.map(({ email_id, address }) => ({ email_id, address }))).toEqual(expected);
      for (const row of rows) {
        expect(row).toMatchObject({
          account_id: server.account.id,
          message_id: message.id,
          status: 'pending',
        });
        expect(Date.parse(row.created)).not.toBeNaN();
      }
    });

    it('queues nothing for a list without members, and still archives', async () => {
      await createList({ name: 'empty' });
      expect((await send({ list: 'empty', content_plain: 'echo' })).status).toBe(200);
      const message = await latest();
      expect(message.list).toBe('empty');
      expect(
        await server.database.db
          .selectFrom('outbox')
          .selectAll()
          .where('message_id', '=', Number(message.id))
          .execute(),
      ).toEqual([]);
    });

    it('derives the plain text from HTML-only content and keeps the HTML as sent', async () => {
      const html = '<p>Fish &amp; chips</p><script>x()</script><p>at <b>5</b></p>';
      expect((await send({ list: 'news', content_html: html })).status).toBe(200);
      const message = await latest();
      expect(message.content_html).toBe(html);
      expect(message.content_plain).toBe('Fish & chips\n\nat 5');
    });

    it('keeps both contents when both are given, and defaults the sender to the list', async () => {
      expect(
        (await send({ list: 'news', content_plain: 'plain', content_html: '<i>rich</i>' })).status,
      ).toBe(200);
      const message = await latest();
      expect(message).toMatchObject({
        content_plain: 'plain',
        content_html: '<i>rich</i>',
        subject: '',
        from_phrase: '',
      });
      expect(message.from_address).toBe('news@listkeeper.local');
    });

    it('overrides the posting restrictions (the spec §4.5 rule)', async () => {
      // news holds every message (moderate 1) and bans boss@example.org; the API still sends.
      const response = await send({
        list: 'news',
        from_address: 'boss@example.org',
        content_plain: 'from the banned boss',
      });
      expect(response.status).toBe(200);
      expect((await latest()).content_plain).toBe('from the banned boss');
    });

    it('threads replies: thread_id is the parent’s thread, parent the message replied to', async () => {
      await send({ list: 'other', subject: 'Root', content_plain: 'root' });
      const root = await latest();
      expect(root.thread_id).toBe(root.id);
      await send({ list: 'other', subject: 'Re: Root', content_plain: 'reply', parent: root.id });
      const reply = await latest();
      expect(reply).toMatchObject({ parent: root.id, thread_id: root.id });
      await send({
        list: 'other',
        subject: 'Re: Re: Root',
        content_plain: 'deeper',
        parent: String(reply.id),
      });
      const deeper = await latest();
      expect(deeper).toMatchObject({ parent: reply.id, thread_id: root.id });
      expect(deeper.id).not.toBe(root.id);
    });

    const refused: [string, Record<string, unknown>][] = [
      ['no list', { content_plain: 'x' }],
      ['no content', { list: 'news' }],
      ['empty contents', { list: 'news', content_plain: '', content_html: '' }],
      ['an unknown list', { list: 'ghost', content_plain: 'x' }],
      ['an impossible list name', { list: 'two words', content_plain: 'x' }],
      ['an invalid from_address', { list: 'news', from_address: 'nope', content_plain: 'x' }],
      ['an unknown parent', { list: 'news', content_plain: 'x', parent: 999_999 }],
      ['a parent that is no identifier', { list: 'news', content_plain: 'x', parent: 'abc' }],
      ['a parent of 0', { list: 'news', content_plain: 'x', parent: 0 }],
    ];
    for (const [what, form] of refused) {
      it(`refuses ${what} with 400 and archives nothing`, async () => {
        const before = asPage(await page()).count;
        const response = await send(form);
        expect(response.status).toBe(400);
        expect(asError(response).message).not.toBe('');
        expect(asPage(await page()).count).toBe(before);
      });
    }

    it('ignores read-only and unknown fields, naming them (SECURITY.md 17)', async () => {
      const response = await send({ list: 'news', content_plain: 'extras', id: 1, time: 1, message_id: '<a@b>', thread_id: 1, priority: 'high' });
      expect(response.status).toBe(200);
      expect(response.headers['x-ignored-fields']).toBe('id, time, message_id, thread_id, priority');
      const sent = await latest();
      expect(sent.time).not.toBe(1);
      expect(sent.message_id).not.toBe('<a@b>');
    });

    it('refuses a parent from another list', async () => {
      await send({ list: 'news', content_plain: 'in news' });
      const inNews = await latest();
      const response = await send({ list: 'other', content_plain: 'x', parent: inNews.id });
      expect(response.status).toBe(400);
      expect(asError(response).message).toMatch(/parent/);
    });
  });

  describe('get many', () => {
    let server2: TestServer;
    let ids: number[];
    const timeOf = (index: number) => 1_700_000_000 + Math.floor((25 - index) / 2);
    beforeAll(async () => {
      server2 = await startTestServer(dialect);
      await server2.request('POST', '/api/2/lists/', { form: { name: 'arch' } });
      for (let i = 0; i < 25; i += 1) {
        const sent = await server2.request('POST', '/api/2/messages/', {
          form: { list: 'arch', subject: `m${i}`, content_plain: `${i}` },
        });
        expect(sent.status).toBe(200);
      }
      // Spread the times, with ties, so that ordering by time and then id shows.
      const rows = await server2.database.db
        .selectFrom('messages')
        .select('id')
        .orderBy('id')
        .execute();
      ids = rows.map((row) => row.id);
      for (const [index, id] of ids.entries()) {
        await server2.database.db
          .updateTable('messages')
          .set({ time: timeOf(index) })
          .where('id', '=', id)
          .execute();
      }
    });
    afterAll(() => server2.close());
    const get = (query: Record<string, unknown> = {}) =>
      server2.request('GET', '/api/2/messages/', { query });
    const expectedOrder = (direction: 'asc' | 'desc') => {
      const ordered = ids
        .map((id, index) => ({ id, time: timeOf(index) }))
        .sort((a, b) => a.time - b.time || a.id - b.id)
        .map((m) => m.id);
      return direction === 'asc' ? ordered : ordered.reverse();
    };

    it('answers count, page and 10 messages, newest first, by default', async () => {
      const response = await get();
      expect(response.status).toBe(200);
      const body = asPage(response);
      expect(body.count).toBe(25);
      expect(body.page).toBe(1);
      expect(idsOf(body.data)).toEqual(expectedOrder('desc').slice(0, 10));
      expect(response.headers['x-ratelimit-remaining']).toBeDefined();
    });

    it('pages with page and limit, in either direction', async () => {
      const asc = asPage(await get({ direction: 'asc', limit: 7, page: 2 }));
      expect(asc).toMatchObject({ count: 25, page: 2 });
      expect(idsOf(asc.data)).toEqual(expectedOrder('asc').slice(7, 14));
      expect(idsOf(asPage(await get({ direction: 'desc', limit: 100 })).data)).toEqual(
        expectedOrder('desc'),
      );
      expect(asPage(await get({ limit: 10, page: 3 })).data).toHaveLength(5);
    });

    it('answers an empty page past the end, with the count', async () => {
      for (const query of [{ page: 4 }, { page: 9_007_199_254_740_991, limit: 100 }]) {
        const response = await get(query);
        expect(response.status).toBe(200);
        expect(response.json).toEqual({ count: 25, page: query.page, data: [] });
      }
    });

    const badQueries: Record<string, unknown>[] = [
      { limit: 101 },
      { limit: 0 },
      { limit: -1 },
      { limit: 'abc' },
      { page: 0 },
      { page: 1.5 },
      { direction: 'sideways' },
      { list: 'arch' },
      { search: 'x' },
    ];
    for (const query of badQueries) {
      it(`refuses the query ${JSON.stringify(query)} with 400`, async () => {
        const response = await get(query);
        expect(response.status).toBe(400);
        expect(asError(response).is_error).toBe(true);
      });
    }
  });

  describe('get one and delete', () => {
    it('gets one message, and 404s unknown or impossible ids', async () => {
      await send({ list: 'news', subject: 'one', content_plain: 'single' });
      const message = await latest();
      const response = await server.request('GET', `/api/2/messages/${message.id}/`);
      expect(response.status).toBe(200);
      expect(asMessage(response)).toEqual(message);
      for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
        const missing = await server.request('GET', `/api/2/messages/${id}/`);
        expect(missing.status, id).toBe(404);
        expect(missing.json).toEqual({ is_error: true, message: 'Message not found' });
      }
    });

    it('deletes a message with its pending deliveries; its replies hang from its parent', async () => {
      await send({ list: 'news', subject: 'root', content_plain: 'r' });
      const root = await latest();
      await send({ list: 'news', subject: 'middle', content_plain: 'm', parent: root.id });
      const middle = await latest();
      await send({ list: 'news', subject: 'leaf', content_plain: 'l', parent: middle.id });
      const leaf = await latest();
      const response = await server.request('DELETE', `/api/2/messages/${middle.id}/`);
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ success: 1 });
      expect((await server.request('GET', `/api/2/messages/${middle.id}/`)).status).toBe(404);
      const reparented = asMessage(await server.request('GET', `/api/2/messages/${leaf.id}/`));
      expect(reparented).toMatchObject({ parent: root.id, thread_id: root.id });
      const outbox = await server.database.db
        .selectFrom('outbox')
        .selectAll()
        .where('message_id', '=', Number(middle.id))
        .execute();
      expect(outbox).toEqual([]);
      expect((await server.request('DELETE', `/api/2/messages/${middle.id}/`)).status).toBe(404);
      expect((await server.request('DELETE', '/api/2/messages/abc/')).status).toBe(404);
    });
  });

  describe('limit_lists principals and accounts', () => {
    let key: string;
    beforeAll(async () => {
      key = await limitedKey(
        server,
        'limited-messages@example.org',
        ['messages', 'limit_lists'],
        ['other'],
      );
    });

    it('sees, counts and deletes only messages of its lists', async () => {
      await send({ list: 'news', subject: 'secret', content_plain: 'news only' });
      const secret = await latest();
      const all = asPage(await page({ limit: 100 }));
      const mine = await page({ limit: 100 }, key);
      expect(mine.status).toBe(200);
      const expected = all.data.filter((m) => m.list === 'other');
      expect(asPage(mine).count).toBe(expected.length);
      expect(asPage(mine).data).toEqual(expected);
      expect((await server.request('GET', `/api/2/messages/${secret.id}/`, { key })).status).toBe(
        404,
      );
      expect(
        (await server.request('DELETE', `/api/2/messages/${secret.id}/`, { key })).status,
      ).toBe(404);
      expect((await server.request('GET', `/api/2/messages/${secret.id}/`)).status).toBe(200);
    });

    it('cannot send to other lists', async () => {
      // A list outside its limit answers as a missing one (SECURITY.md 33).
      const hidden = await send({ list: 'news', content_plain: 'x' }, key);
      const missing = await send({ list: 'nosuchlist', content_plain: 'x' }, key);
      expect(hidden.status).toBe(400);
      expect(missing.status).toBe(400);
      expect(hidden.json).toEqual({ is_error: true, message: 'list: no list named news in this account' });
      expect((await send({ list: 'other', content_plain: 'mine' }, key)).status).toBe(200);
    });

    it('sees no messages at all with an empty limit', async () => {
      const none = await limitedKey(
        server,
        'limited-nothing@example.org',
        ['messages', 'limit_lists'],
        [],
      );
      expect((await page({}, none)).json).toEqual({ count: 0, page: 1, data: [] });
    });

    it('needs the messages permission to send, and messages or approval to read', async () => {
      const approver = await server.createKey({
        accountId: server.account.id,
        permissions: ['approval'],
      });
      expect((await page({}, approver)).status).toBe(200);
      expect((await send({ list: 'news', content_plain: 'x' }, approver)).status).toBe(403);
      const contact = await server.createKey({
        accountId: server.account.id,
        permissions: ['contact'],
      });
      expect((await page({}, contact)).status).toBe(403);
    });

    it('keeps the messages of each account apart', async () => {
      const account = await server.createAccount('messages-other');
      const otherKey = await server.createKey({
        accountId: account.id,
        permissions: ['superadmin'],
      });
      const ours = await latest();
      expect((await page({}, otherKey)).json).toEqual({ count: 0, page: 1, data: [] });
      expect(
        (await server.request('GET', `/api/2/messages/${ours.id}/`, { key: otherKey })).status,
      ).toBe(404);
      expect(
        (await server.request('DELETE', `/api/2/messages/${ours.id}/`, { key: otherKey })).status,
      ).toBe(404);
      expect((await send({ list: 'news', content_plain: 'x' }, otherKey)).status).toBe(400);
      await server.request('POST', '/api/2/lists/', { key: otherKey, form: { name: 'news' } });
      // A parent in another account's list of the same name is no parent.
      expect(
        (await send({ list: 'news', content_plain: 'x', parent: ours.id }, otherKey)).status,
      ).toBe(400);
    });
  });
});
