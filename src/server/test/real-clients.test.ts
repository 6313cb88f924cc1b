import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { List } from '../../api/schemas/list.ts';
import { BODY_LIMIT } from '../http/body-limit.ts';
import {
  addList,
  errorMessage,
  expectStatus,
  freshAddress,
  limitedKey,
  readContact,
  readEmail,
  readMembership,
} from './address-book-fixtures.ts';
import { databaseSnapshot } from './db-snapshot.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './harness.ts';

/**
 * Issue 16 §2: what public integrations of the hosted platform (PHP, Scheme and Deno clients in
 * production) send, replayed over HTTP. Fields no schema lists are ignored and named in
 * `X-Ignored-Fields` (SECURITY.md 17), bodies need not be percent-encoded, booleans may be
 * true/false, JSON bodies carry the same fields, a PUT sets a contact's addresses and lists, and an
 * account key may name its own account.
 */

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const LISTS = '/api/2/lists/';
const CONTACTS = '/api/2/contacts/';
const contactUrl = (id: string | number) => `${CONTACTS}${encodeURIComponent(String(id))}/`;

const ignoredOf = (response: TestResponse) => response.headers['x-ignored-fields'];

describeEachDialect('real clients of the hosted API (issue 16 §2)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const name of ['news', 'events', 'staff', 'other']) await addList(server, name);
  });
  afterAll(() => server.close());

  const raw = (
    method: string,
    url: string,
    body: string | Buffer,
    contentType = FORM,
    key?: string,
  ) => server.request(method, url, { body, contentType, ...(key ? { key } : {}) });

  describe('a client that labels its body text/plain, or with a type the spec does not name', () => {
    // fetch() labels a string body text/plain;charset=UTF-8 unless told otherwise: a Deno client
    // that forgets the header sends its JSON or its form that way.
    it('reads a JSON object sent as text/plain', async () => {
      const address = freshAddress();
      const response = await raw(
        'POST',
        CONTACTS,
        JSON.stringify({ emails: [address], firstname: 'Deno' }),
        'text/plain;charset=UTF-8',
      );
      const contact = readContact(response);
      expect(contact.emails.map((e) => e.email)).toEqual([address]);
      expect(contact.firstname).toBe('Deno');
    });

    it('reads form fields sent as text/plain or application/octet-stream', async () => {
      for (const type of ['text/plain', 'application/octet-stream']) {
        const address = freshAddress();
        const contact = readContact(
          await raw('POST', CONTACTS, `emails=${address}&firstname=Plain`, type),
        );
        expect(contact.emails.map((e) => e.email)).toEqual([address]);
      }
    });

    it('still refuses malformed JSON in the spec shape, whatever its label', async () => {
      const response = await raw('POST', CONTACTS, '{"emails": [', 'text/plain');
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ is_error: true });
    });
  });

  describe('a PHP client: a raw, unencoded body with a field the spec does not list', () => {
    it('creates the list, ignores subs_memberview and names it, storing nothing of it', async () => {
      const body =
        'name=php-list&description=Offers < 5$ & more&subs_memberview=1&moderator=list+owner@example.org' +
        '&message_footer=Sent to $LISTNAME <unsubscribe> 100% free';
      const response = await raw('POST', LISTS, body);
      const list = List.parse(expectStatus(response, 200));
      // The raw `&` ends the description: what follows it is a field of its own, named ` more`.
      expect(ignoredOf(response)).toBe('%20more, subs_memberview');
      // Raw `<`, `$` and spaces arrive as sent, `+` stays a plus sign; the `&` still ends a field.
      expect(list).toMatchObject({
        description: 'Offers < 5$ ',
        moderator: 'list+owner@example.org',
        message_footer: 'Sent to $LISTNAME <unsubscribe> 100% free',
      });
      expect(await databaseSnapshot(server.database.db)).not.toContain('subs_memberview');
      const read = List.parse(expectStatus(await server.request('GET', `${LISTS}php-list/`), 200));
      expect(read).not.toHaveProperty('subs_memberview');
    });

    it('creates a contact whose address holds a + from a raw body, ignoring a read-only id', async () => {
      const response = await raw(
        'POST',
        CONTACTS,
        'emails=ann+php@example.org&firstname=Ann Marie&lists=news&id=999999&subs_memberview=',
      );
      const contact = readContact(response);
      expect(contact.emails.map((e) => e.email)).toEqual(['ann+php@example.org']);
      expect(contact.firstname).toBe('Ann Marie');
      expect(contact.id).not.toBe(999999);
      expect(ignoredOf(response)).toBe('id, subs_memberview');
    });

    it('reads arrays sent as http_build_query does (lists[0]=…)', async () => {
      const response = await raw(
        'POST',
        CONTACTS,
        `emails%5B0%5D=${freshAddress()}&lists%5B0%5D=news&lists%5B1%5D=events`,
      );
      expect(readContact(response).lists.map((m) => m.list)).toEqual(['news', 'events']);
    });

    it('still reads an encoded body as before: + is a space there', async () => {
      const response = await raw('PUT', `${LISTS}php-list/`, 'description=a+b%2Bc');
      expect(List.parse(expectStatus(response, 200)).description).toBe('a b+c');
    });
  });

  describe('a client whose body is not UTF-8', () => {
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const description = async () =>
      List.parse(expectStatus(await server.request('GET', `${LISTS}php-list/`), 200)).description;

    it('reads a Latin-1 form, raw or percent-encoded, in the charset it declares', async () => {
      const type = `${FORM}; charset=ISO-8859-1`;
      expectStatus(
        await raw('PUT', `${LISTS}php-list/`, latin1('description=Café crème'), type),
        200,
      );
      expect(await description()).toBe('Café crème');
      expectStatus(await raw('PUT', `${LISTS}php-list/`, 'description=caf%E9+cr%E8me', type), 200);
      expect(await description()).toBe('café crème');
      const json = latin1(JSON.stringify({ description: 'Noël' }));
      expectStatus(
        await raw('PUT', `${LISTS}php-list/`, json, `${JSON_TYPE}; charset=iso-8859-1`),
        200,
      );
      expect(await description()).toBe('Noël');
    });

    it('reads a JSON body that starts with a byte order mark (RFC 8259 §8.1)', async () => {
      const body = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('{"description":"with BOM"}'),
      ]);
      expectStatus(await raw('PUT', `${LISTS}php-list/`, body, JSON_TYPE), 200);
      expect(await description()).toBe('with BOM');
    });

    it('refuses bytes that are not of its charset, and a charset it cannot read, storing nothing', async () => {
      expectStatus(await raw('PUT', `${LISTS}php-list/`, 'description=kept'), 200);
      for (const [body, type, status] of [
        [latin1('description=café'), FORM, 400],
        ['description=caf%E9', FORM, 400],
        [latin1('{"description":"café"}'), JSON_TYPE, 400],
        [latin1('description=café'), 'text/plain', 400],
        ['description=x', `${FORM}; charset=x-unheard-of`, 415],
      ] as const) {
        const response = await raw('PUT', `${LISTS}php-list/`, body, type);
        expect(errorMessage(response, status), type).not.toBe('');
      }
      expect(await description()).toBe('kept');
    });
  });

  describe('a Scheme client: true and false for booleans', () => {
    it('sets booleans from true/false as from 1/0, and flags likewise', async () => {
      await addList(server, 'scheme-list');
      const on = await raw(
        'PUT',
        `${LISTS}scheme-list/`,
        'strip_attachments=true&hold_replies=true&archive_enabled=true',
      );
      expect(List.parse(expectStatus(on, 200))).toMatchObject({
        strip_attachments: true,
        hold_replies: true,
        archive_enabled: true,
      });
      const off = await raw(
        'PUT',
        `${LISTS}scheme-list/`,
        'strip_attachments=false&hold_replies=FALSE&archive_enabled=0',
      );
      expect(List.parse(expectStatus(off, 200))).toMatchObject({
        strip_attachments: false,
        hold_replies: false,
        archive_enabled: false,
      });
      const address = readEmail(
        await raw(
          'POST',
          '/api/2/emails/',
          `email=${freshAddress()}&contact=${await contactId()}&paused=true&digest=false`,
        ),
      );
      expect(address).toMatchObject({ paused: true, digest: false });
    });
  });

  async function contactId(lists: string[] = []): Promise<number> {
    const contact = readContact(
      await server.request('POST', CONTACTS, { form: { emails: [freshAddress()], lists } }),
    );
    return contact.id as number;
  }

  describe('a Deno client: JSON bodies with the same fields', () => {
    it('creates and updates with JSON arrays, booleans, numbers and null', async () => {
      const created = await raw(
        'POST',
        LISTS,
        JSON.stringify({
          name: 'deno-list',
          strip_attachments: true,
          maxlength: 40,
          truncate: null,
          taboo_body: ['viagra', 'lottery'],
          reply_to: null,
          client: 'deno',
        }),
        JSON_TYPE,
      );
      expect(List.parse(expectStatus(created, 200))).toMatchObject({
        name: 'deno-list',
        strip_attachments: true,
        maxlength: 40,
        truncate: null,
        taboo_body: ['viagra', 'lottery'],
        reply_to: null,
      });
      expect(ignoredOf(created)).toBe('client');
      const contact = readContact(
        await raw(
          'POST',
          CONTACTS,
          JSON.stringify({
            emails: [freshAddress('deno')],
            lists: ['news', 'deno-list'],
            firstname: 'Deno',
          }),
          `${JSON_TYPE}; charset=utf-8`,
        ),
      );
      expect(contact.lists.map((m) => m.list)).toEqual(['news', 'deno-list']);
      const membership = readMembership(
        await raw(
          'PUT',
          `/api/2/membership/${contact.lists[0]?.id}/`,
          JSON.stringify({ digest: true }),
          JSON_TYPE,
        ),
      );
      expect(membership.digest).toBe(true);
      const cleared = readMembership(
        await raw(
          'PUT',
          `/api/2/membership/${contact.lists[0]?.id}/`,
          JSON.stringify({ digest: null }),
          JSON_TYPE,
        ),
      );
      expect(cleared.digest).toBeNull();
    });

    it('PUTs a contact back as it was read, changing only what it changed', async () => {
      const id = await contactId(['news']);
      const read = readContact(await server.request('GET', contactUrl(id)));
      const response = await raw(
        'PUT',
        contactUrl(id),
        JSON.stringify({ ...read, firstname: 'Changed' }),
        JSON_TYPE,
      );
      const updated = readContact(response);
      expect(updated).toEqual({ ...read, firstname: 'Changed' });
      expect(ignoredOf(response)).toMatch(/^id, created, emails\[\]\.id, /);
    });

    it('refuses malformed JSON, anything but an object, and bodies over the limit, in the spec shape', async () => {
      expect(errorMessage(await raw('POST', LISTS, '{"name": ', JSON_TYPE), 400)).toMatch(
        /not valid JSON/,
      );
      expect(errorMessage(await raw('POST', LISTS, '["name", "x"]', JSON_TYPE), 400)).toMatch(
        /object/,
      );
      expect(errorMessage(await raw('POST', LISTS, 'null', JSON_TYPE), 400)).toMatch(/object/);
      expect(
        errorMessage(
          await raw('POST', LISTS, `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`, JSON_TYPE),
          400,
        ),
      ).toMatch(/nests/);
      const huge = JSON.stringify({ name: 'huge', description: 'x'.repeat(BODY_LIMIT) });
      expect(errorMessage(await raw('POST', LISTS, huge, JSON_TYPE), 413)).toMatch(/larger than/);
      expect(
        errorMessage(
          await raw('POST', LISTS, JSON.stringify({ name: 'bad', maxlength: 'lots' }), JSON_TYPE),
          400,
        ),
      ).toMatch(/^maxlength: /);
    });
  });

  describe('PUT /contacts/:id/ with emails and lists (spec §4.1 "any contact fields")', () => {
    it('sets the whole arrays: what stays keeps its settings, the rest goes, new ones come', async () => {
      const [a, b, c] = [freshAddress(), freshAddress(), freshAddress()];
      const contact = readContact(
        await server.request('POST', CONTACTS, {
          form: { emails: [a, b], lists: ['news', 'events'] },
        }),
      );
      const kept = contact.emails[0];
      const news = contact.lists.find((m) => m.list === 'news');
      expect(kept && news).toBeTruthy();
      expectStatus(
        await server.request('PUT', `/api/2/emails/${kept?.id}/`, {
          form: { paused: true, ceid: 'keep-me' },
        }),
        200,
      );
      expectStatus(
        await server.request('PUT', `/api/2/membership/${news?.id}/`, { form: { digest: true } }),
        200,
      );

      const response = await server.request('PUT', contactUrl(contact.id), {
        form: { emails: [a.toUpperCase(), c], lists: ['staff', 'news'] },
      });
      const updated = readContact(response);
      expect(updated.emails).toEqual([
        { ...kept, email: a.toUpperCase(), paused: true, ceid: 'keep-me' },
        expect.objectContaining({ email: c, paused: false, ceid: null }),
      ]);
      expect(updated.lists).toEqual([
        { ...news, digest: true },
        expect.objectContaining({ list: 'staff', digest: null }),
      ]);
      // The answer is what is stored, and what the stored document serves.
      expect(readContact(await server.request('GET', contactUrl(contact.id)))).toEqual(updated);
      expect(
        expectStatus(await server.request('GET', `/api/2/emails/${encodeURIComponent(b)}/`), 404),
      ).toBeTruthy();
      const found = await server.request('GET', CONTACTS, { query: { email: c } });
      expect((found.json as { count: number }).count).toBe(1);
    });

    it('changes nothing when any part is refused: no address left, an unknown list, an address taken', async () => {
      const other = freshAddress();
      await contactId();
      const taken = readContact(
        await server.request('POST', CONTACTS, { form: { emails: [other] } }),
      );
      const contact = readContact(
        await server.request('POST', CONTACTS, {
          form: { emails: [freshAddress()], lists: ['news'] },
        }),
      );
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ emails: [] }, /^emails: /],
        [{ emails: [freshAddress()], lists: ['news', 'no-such-list'] }, /no-such-list/],
        [{ lists: [], emails: [freshAddress(), taken.emails[0]?.email] }, /already belongs/],
        [{ firstname: 'X', emails: ['a@example.org', 'A@example.org'] }, /given twice/],
      ];
      for (const [form, message] of cases) {
        const before = await databaseSnapshot(server.database.db);
        expect(
          errorMessage(await server.request('PUT', contactUrl(contact.id), { form }), 400),
          JSON.stringify(form),
        ).toMatch(message);
        expect(await databaseSnapshot(server.database.db), JSON.stringify(form)).toBe(before);
      }
    });

    it('charges one object, like any write of one contact (spec §8)', async () => {
      const id = await contactId(['news']);
      const first = await server.request('PUT', contactUrl(id), {
        form: { lists: ['events', 'staff'] },
      });
      const second = await server.request('PUT', contactUrl(id), {
        form: { lists: ['news'], emails: [freshAddress(), freshAddress()] },
      });
      expectStatus(first, 200);
      expectStatus(second, 200);
      expect(
        Number(first.headers['x-ratelimit-remaining']) -
          Number(second.headers['x-ratelimit-remaining']),
      ).toBe(1);
    });

    it('lets a list-limited key change only memberships of its own lists (spec §2.6)', async () => {
      const key = await limitedKey(server, {
        permissions: ['contact', 'limit_lists'],
        limitLists: ['news', 'events'],
      });
      const id = await contactId(['news']);
      const moved = readContact(
        await server.request('PUT', contactUrl(id), { key, form: { lists: ['events'] } }),
      );
      expect(moved.lists.map((m) => m.list)).toEqual(['events']);
      const before = await databaseSnapshot(server.database.db);
      // Another list, existing or not, is refused alike, as unknown: the key learns nothing of
      // other lists (SECURITY.md 33).
      for (const list of ['staff', 'no-such-list']) {
        const refused = await server.request('PUT', contactUrl(id), {
          key,
          form: { lists: ['events', list] },
        });
        expect(errorMessage(refused, 400)).toBe(`Unknown list: ${list}`);
      }
      expect(await databaseSnapshot(server.database.db)).toBe(before);
      // A contact on a list beyond the key stays beyond it (README: every list must be its own).
      const wider = await contactId(['news', 'other']);
      expect(
        errorMessage(
          await server.request('PUT', contactUrl(wider), { key, form: { lists: ['news'] } }),
          403,
        ),
      ).toBeTruthy();
    });

    it('ignores custom fields the account does not define, and names them', async () => {
      const id = await contactId();
      const response = await server.request('PUT', contactUrl(id), {
        form: { firstname: 'Cy', subs_memberview: '1', shoe_size: '44' },
      });
      expect(readContact(response)).not.toHaveProperty('shoe_size');
      expect(ignoredOf(response)).toBe('subs_memberview, shoe_size');
    });
  });

  describe('account_id naming the key’s own account (spec §4.8)', () => {
    it('is accepted from an account key in the query, repeated, empty, or in a form or JSON body', async () => {
      const own = server.account.id;
      const calls: [string, Promise<TestResponse>][] = [
        ['query', server.request('GET', `${LISTS}?account_id=${own}`)],
        ['repeated', server.request('GET', `${LISTS}?account_id=${own}&account_id=0${own}`)],
        ['empty', server.request('GET', `${LISTS}?account_id=`)],
        ['form body', raw('PUT', `${LISTS}news/`, `description=from PHP&account_id=${own}`)],
        [
          'JSON body',
          raw(
            'PUT',
            `${LISTS}news/`,
            JSON.stringify({ description: 'from Deno', account_id: own }),
            JSON_TYPE,
          ),
        ],
        ['DELETE body', raw('DELETE', contactUrl(await contactId()), `account_id=${own}`)],
        ['query and body', raw('PUT', `${LISTS}news/?account_id=${own}`, `account_id=${own}`)],
      ];
      for (const [what, call] of calls) {
        const response = await call;
        expect(response.status, `${what}: ${response.body.slice(0, 200)}`).toBe(200);
        expect(ignoredOf(response), what).toBeUndefined();
      }
    });

    it('still refuses another account, wherever it is named', async () => {
      const elsewhere = await server.createAccount('elsewhere');
      const before = await databaseSnapshot(server.database.db);
      for (const response of [
        await server.request('GET', `${LISTS}?account_id=${elsewhere.id}`),
        await raw('PUT', `${LISTS}news/`, `description=x&account_id=${elsewhere.id}`),
        await raw(
          'PUT',
          `${LISTS}news/`,
          JSON.stringify({ description: 'x', account_id: elsewhere.id }),
          JSON_TYPE,
        ),
      ]) {
        expect(errorMessage(response, 403)).toMatch(/account_id/);
      }
      expect(
        errorMessage(
          await raw(
            'PUT',
            `${LISTS}news/?account_id=${server.account.id}`,
            `account_id=${elsewhere.id}`,
          ),
          400,
        ),
      ).toMatch(/different accounts/);
      expect(await databaseSnapshot(server.database.db)).toBe(before);
    });

    it('lets a global key name its account in the body', async () => {
      const response = await raw(
        'PUT',
        `${LISTS}news/`,
        JSON.stringify({ description: 'by the group', account_id: server.account.id }),
        JSON_TYPE,
        server.globalKey,
      );
      expect(List.parse(expectStatus(response, 200)).description).toBe('by the group');
    });
  });
});
