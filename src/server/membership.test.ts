import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addList,
  anyNumber,
  at,
  errorMessage,
  expectStatus,
  freshAddress,
  limitedKey,
  postContact,
  readContact,
  readMembership,
} from './test/address-book-fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

const MEMBERSHIP = '/api/2/membership/';
const membershipUrl = (id: string | number) => `${MEMBERSHIP}${encodeURIComponent(String(id))}/`;
const contactUrl = (id: string | number) => `/api/2/contacts/${encodeURIComponent(String(id))}/`;

describeEachDialect('membership (spec §4.3)', (dialect) => {
  let server: TestServer;
  let other: { id: number; name: string };
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await addList(server, 'news');
    await addList(server, 'events');
    await addList(server, 'secret');
    other = await server.createAccount('membership-other');
    await addList(server, 'theirs', other.id);
  });
  afterAll(() => server.close());

  const join = async (form: Record<string, unknown>, key?: string) =>
    readMembership(await server.request('POST', MEMBERSHIP, { form, key }));

  describe('create', () => {
    it('adds a contact to a list; digest defaults to the address setting (null)', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const membership = await join({ contact: contact.id, list: 'news' });
      expect(membership).toEqual({
        id: anyNumber,
        contact: contact.id,
        list: 'news',
        digest: null,
      });
      expect(readContact(await server.request('GET', contactUrl(contact.id))).lists).toEqual([
        membership,
      ]);
      expect(readMembership(await server.request('GET', membershipUrl(membership.id)))).toEqual(
        membership,
      );
    });

    it('takes digest 1 and 0 (spec §2.3)', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      expect((await join({ contact: contact.id, list: 'news', digest: 1 })).digest).toBe(true);
      expect((await join({ contact: contact.id, list: 'events', digest: 0 })).digest).toBe(false);
    });

    it('refuses a second membership of the same contact in the same list', async () => {
      const contact = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
      const response = await server.request('POST', MEMBERSHIP, {
        form: { contact: contact.id, list: 'news' },
      });
      expect(errorMessage(response, 400)).toBe(`Contact ${contact.id} is already a member of news`);
    });

    it('never answers 500 to parallel creates of one membership', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          server.request('POST', MEMBERSHIP, { form: { contact: contact.id, list: 'events' } }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.every((status) => [200, 400, 409].includes(status))).toBe(true);
    });

    it('refuses an unknown list, naming it, and a list of another account', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      for (const list of ['nope', 'theirs']) {
        const response = await server.request('POST', MEMBERSHIP, {
          form: { contact: contact.id, list },
        });
        expect(errorMessage(response, 400)).toBe(`Unknown list: ${list}`);
      }
    });

    it('refuses an unknown contact and a contact of another account', async () => {
      const theirs = await postContact(
        server,
        { emails: [freshAddress()] },
        { key: server.globalKey, query: { account_id: other.id } },
      );
      for (const contact of [999999, theirs.id, 'abc']) {
        const response = await server.request('POST', MEMBERSHIP, {
          form: { contact, list: 'news' },
        });
        expect(errorMessage(response, 400)).toBe(`contact: no contact ${contact} in this account`);
      }
    });

    it.each([
      [{ list: 'news' }, 'contact: is required'],
      [{ contact: 1 }, 'list: is required'],
      [{ contact: 1, list: 'bad name!' }, 'list: may hold only'],
      [{ contact: 1, list: 'x'.repeat(65) }, 'list: has at most 64 characters'],
    ])('refuses %j with 400', async (form, message) => {
      const response = await server.request('POST', MEMBERSHIP, { form });
      expect(errorMessage(response, 400)).toContain(message);
    });

    it('ignores read-only and unknown fields, naming them (SECURITY.md 17)', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const response = await server.request('POST', MEMBERSHIP, {
        form: { contact: contact.id, list: 'news', id: 3, confirmed: 1 },
      });
      expect(readMembership(response)).toMatchObject({ contact: contact.id, list: 'news' });
      expect(response.headers['x-ignored-fields']).toBe('id, confirmed');
    });
  });

  describe('get one', () => {
    it.each(['999999', 'abc', '0', '99999999999999999999'])('answers 404 for %s', async (id) => {
      expect(errorMessage(await server.request('GET', membershipUrl(id)), 404)).toBe(
        'Membership not found',
      );
    });

    it("never shows another account's membership (SECURITY.md 15)", async () => {
      const theirs = await postContact(
        server,
        { emails: [freshAddress()], lists: ['theirs'] },
        { key: server.globalKey, query: { account_id: other.id } },
      );
      const id = at(theirs.lists).id;
      expect((await server.request('GET', membershipUrl(id))).status).toBe(404);
      expect((await server.request('PUT', membershipUrl(id), { form: { digest: 1 } })).status).toBe(
        404,
      );
      expect((await server.request('DELETE', membershipUrl(id))).status).toBe(404);
      expect(
        (
          await server.request('GET', membershipUrl(id), {
            key: server.globalKey,
            query: { account_id: other.id },
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('update', () => {
    it('sets digest to 1, 0, and back to the address default with an empty value', async () => {
      const contact = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
      const id = at(contact.lists).id;
      const put = async (form: Record<string, unknown>) =>
        readMembership(await server.request('PUT', membershipUrl(id), { form }));
      expect((await put({ digest: 1 })).digest).toBe(true);
      expect(readMembership(await server.request('GET', membershipUrl(id))).digest).toBe(true);
      expect((await put({ digest: 0 })).digest).toBe(false);
      // An absent digest changes nothing (spec §1 rule 6); an empty one is null, the address default.
      expect((await put({})).digest).toBe(false);
      expect((await put({ digest: null })).digest).toBe(null);
      expect(readMembership(await server.request('GET', membershipUrl(id)))).toEqual(
        at(contact.lists),
      );
    });

    it.each([
      [{ list: 'events' }, 'list'],
      [{ contact: 1 }, 'contact'],
      [{ id: 1 }, 'id'],
    ])('ignores %j and names it, the membership unchanged', async (form, name) => {
      const contact = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
      const response = await server.request('PUT', membershipUrl(at(contact.lists).id), { form });
      expect(readMembership(response)).toEqual(at(contact.lists));
      expect(response.headers['x-ignored-fields']).toBe(name);
    });

    it.each([
      [{ digest: ['1', '0'] }, 'digest: given more than once'],
    ])('refuses %j with 400', async (form, message) => {
      const contact = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
      const response = await server.request('PUT', membershipUrl(at(contact.lists).id), { form });
      expect(errorMessage(response, 400)).toContain(message);
    });

    it('answers 404 for an unknown membership', async () => {
      expect(
        (await server.request('PUT', membershipUrl(999999), { form: { digest: 1 } })).status,
      ).toBe(404);
    });
  });

  describe('delete', () => {
    it('removes the contact from the list; the contact stays', async () => {
      const contact = await postContact(server, {
        emails: [freshAddress()],
        lists: ['news', 'events'],
      });
      expect(
        expectStatus(await server.request('DELETE', membershipUrl(at(contact.lists).id)), 200),
      ).toEqual({ success: 1 });
      expect((await server.request('GET', membershipUrl(at(contact.lists).id))).status).toBe(404);
      const read = readContact(await server.request('GET', contactUrl(contact.id)));
      expect(read.lists.map((m) => m.list)).toEqual(['events']);
      expect((await server.request('DELETE', membershipUrl(at(contact.lists).id))).status).toBe(
        404,
      );
      // The contact can join the list again.
      await join({ contact: contact.id, list: 'news' });
    });
  });

  describe('permissions (spec §2.6)', () => {
    it('lets a membership-only key manage memberships, not contacts', async () => {
      const key = await limitedKey(server, { permissions: ['membership'] });
      const contact = await postContact(server, { emails: [freshAddress()] });
      const membership = await join({ contact: contact.id, list: 'news' }, key);
      expect(
        readMembership(
          await server.request('PUT', membershipUrl(membership.id), { key, form: { digest: 1 } }),
        ).digest,
      ).toBe(true);
      expect(
        expectStatus(await server.request('DELETE', membershipUrl(membership.id), { key }), 200),
      ).toEqual({ success: 1 });
      expect(
        (await server.request('PUT', contactUrl(contact.id), { key, form: { notes: 'x' } })).status,
      ).toBe(403);
    });

    it('refuses every membership write to a key without contact or membership', async () => {
      const key = await limitedKey(server, { permissions: ['list', 'messages'] });
      const contact = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
      const id = at(contact.lists).id;
      expect((await server.request('GET', membershipUrl(id), { key })).status).toBe(403);
      expect(
        (
          await server.request('POST', MEMBERSHIP, {
            key,
            form: { contact: contact.id, list: 'events' },
          })
        ).status,
      ).toBe(403);
      expect(
        (await server.request('PUT', membershipUrl(id), { key, form: { digest: 1 } })).status,
      ).toBe(403);
      expect((await server.request('DELETE', membershipUrl(id), { key })).status).toBe(403);
    });

    it('confines a list-limited key to its lists', async () => {
      const key = await limitedKey(server, {
        permissions: ['membership', 'limit_lists'],
        limitLists: ['news'],
      });
      const contact = await postContact(server, { emails: [freshAddress()], lists: ['secret'] });
      // A hidden list answers as a missing one (SECURITY.md 33).
      const onHidden = await server.request('POST', MEMBERSHIP, {
        key,
        form: { contact: contact.id, list: 'secret' },
      });
      const missing = await server.request('POST', MEMBERSHIP, {
        key,
        form: { contact: contact.id, list: 'nosuchlist' },
      });
      expect(onHidden.status).toBe(400);
      expect(missing.status).toBe(400);
      expect(onHidden.json).toEqual({ is_error: true, message: 'Unknown list: secret' });
      expect(missing.json).toEqual({ is_error: true, message: 'Unknown list: nosuchlist' });
      const own = await join({ contact: contact.id, list: 'news' }, key);
      expect(own.list).toBe('news');
      // Memberships of other lists are invisible to it, for reads and writes alike.
      const hidden = at(contact.lists).id;
      expect((await server.request('GET', membershipUrl(hidden), { key })).status).toBe(404);
      expect(
        (await server.request('PUT', membershipUrl(hidden), { key, form: { digest: 1 } })).status,
      ).toBe(404);
      expect((await server.request('DELETE', membershipUrl(hidden), { key })).status).toBe(404);
      expect(readMembership(await server.request('GET', membershipUrl(hidden))).digest).toBe(null);
      expect(
        readContact(await server.request('GET', contactUrl(contact.id), { key })).lists,
      ).toEqual([own]);
    });
  });
});

describeEachDialect('membership on a ccid-enabled account', (dialect) => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    const account = await server.createAccount('membership-ccid', { ccid: true });
    key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    await addList(server, 'news', account.id);
  });
  afterAll(() => server.close());

  it('names the contact by its ccid', async () => {
    await postContact(server, { emails: [freshAddress()], ccid: 'm-1' }, { key });
    const membership = readMembership(
      await server.request('POST', MEMBERSHIP, { key, form: { contact: 'm-1', list: 'news' } }),
    );
    expect(membership).toMatchObject({ contact: 'm-1', list: 'news' });
    expect(
      readMembership(await server.request('GET', membershipUrl(membership.id), { key })).contact,
    ).toBe('m-1');
  });
});
