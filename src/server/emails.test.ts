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
  readEmail,
  setAccountSettings,
} from './test/address-book-fixtures.ts';
import { databaseSnapshot } from './test/db-snapshot.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

const EMAILS = '/api/2/emails/';
const emailUrl = (id: string | number) => `${EMAILS}${encodeURIComponent(String(id))}/`;
const contactUrl = (id: string | number) => `/api/2/contacts/${encodeURIComponent(String(id))}/`;

describeEachDialect('emails (spec §4.2)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await addList(server, 'news');
    await addList(server, 'secret');
  });
  afterAll(() => server.close());

  describe('get one', () => {
    it('finds an address by its id and by its URL-encoded address, in any case', async () => {
      const address = 'Mixed.Case+tag@Example.org';
      const contact = await postContact(server, { emails: [address] });
      const byId = readEmail(await server.request('GET', emailUrl(at(contact.emails).id)));
      expect(byId).toEqual(at(contact.emails));
      expect(readEmail(await server.request('GET', emailUrl(address)))).toEqual(byId);
      expect(readEmail(await server.request('GET', emailUrl(address.toLowerCase())))).toEqual(byId);
      // A literal @ in the path works as well as %40.
      expect(
        readEmail(await server.request('GET', `${EMAILS}mixed.case%2Btag@example.org/`)),
      ).toEqual(byId);
    });

    it.each(['999999', 'abc', '0', '1e3', '99999999999999999999', 'nobody%40example.org'])(
      'answers 404 for %s',
      async (id) => {
        expect(errorMessage(await server.request('GET', `${EMAILS}${id}/`), 404)).toBe(
          'Email not found',
        );
      },
    );

    it("never shows another account's address (SECURITY.md 15)", async () => {
      const other = await server.createAccount('emails-other');
      const address = freshAddress('theirs');
      const theirs = await postContact(
        server,
        { emails: [address] },
        { key: server.globalKey, query: { account_id: other.id } },
      );
      const id = at(theirs.emails).id;
      expect((await server.request('GET', emailUrl(id))).status).toBe(404);
      expect((await server.request('GET', emailUrl(address))).status).toBe(404);
      expect((await server.request('PUT', emailUrl(id), { form: { paused: 1 } })).status).toBe(404);
      expect((await server.request('DELETE', emailUrl(id))).status).toBe(404);
      const create = await server.request('POST', EMAILS, {
        form: { email: freshAddress(), contact: theirs.id },
      });
      expect(create.status).toBe(400);
      expect(
        readEmail(
          await server.request('GET', emailUrl(id), {
            key: server.globalKey,
            query: { account_id: other.id },
          }),
        ).paused,
      ).toBe(false);
    });
  });

  describe('create', () => {
    it('adds an address to a contact, with digest, paused and ceid', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const address = freshAddress();
      const form = { email: address, contact: contact.id, digest: true, paused: true, ceid: 'E-1' };
      const email = readEmail(await server.request('POST', EMAILS, { form }));
      expect(email).toEqual({
        id: anyNumber,
        contact: contact.id,
        email: address,
        digest: true,
        paused: true,
        confirmed: false,
        ceid: 'E-1',
      });
      const read = readContact(await server.request('GET', contactUrl(contact.id)));
      expect(read.emails).toHaveLength(2);
      expect(read.emails[1]).toEqual(email);
    });

    it('defaults digest and paused to false', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const email = readEmail(
        await server.request('POST', EMAILS, {
          form: { email: freshAddress(), contact: contact.id },
        }),
      );
      expect(email).toMatchObject({ digest: false, paused: false, confirmed: false, ceid: null });
    });

    it.each([
      [{ contact: 1 }, 'email: is required'],
      [{ email: 'a@example.org' }, 'contact: is required'],
      [{ email: 'not an address', contact: 1 }, 'email: is not a valid email address'],
    ])('refuses %j with 400', async (form, message) => {
      const response = await server.request('POST', EMAILS, { form });
      expect(errorMessage(response, 400)).toContain(message);
    });

    it('ignores read-only and unknown fields, naming them (SECURITY.md 17)', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const response = await server.request('POST', EMAILS, {
        form: { email: freshAddress(), contact: contact.id, confirmed: 1, id: 987654, colour: 'red' },
      });
      const email = readEmail(response);
      expect(email.confirmed).toBe(false);
      expect(email.id).not.toBe(987654);
      expect(response.headers['x-ignored-fields']).toBe('confirmed, id, colour');
    });

    it('refuses an unknown contact with 400', async () => {
      for (const contact of [999999, 'abc']) {
        const response = await server.request('POST', EMAILS, {
          form: { email: freshAddress(), contact },
        });
        expect(errorMessage(response, 400)).toBe(`contact: no contact ${contact} in this account`);
      }
    });

    it('refuses an address the account already holds, naming its contact', async () => {
      const address = freshAddress('dup');
      const owner = await postContact(server, { emails: [address] });
      const other = await postContact(server, { emails: [freshAddress()] });
      const response = await server.request('POST', EMAILS, {
        form: { email: address.toUpperCase(), contact: other.id },
      });
      expect(errorMessage(response, 400)).toBe(`${address} already belongs to contact ${owner.id}`);
    });

    it('enforces restrict_contact (spec §2.7)', async () => {
      const account = await server.createAccount('emails-restricted');
      await setAccountSettings(server, account.id, { restrict_contact: ['@allowed\\.org$'] });
      const as = { key: server.globalKey, query: { account_id: account.id } };
      const contact = await postContact(server, { emails: ['one@allowed.org'] }, as);
      const refused = await server.request('POST', EMAILS, {
        form: { email: 'two@other.org', contact: contact.id },
        ...as,
      });
      expect(refused.status).toBe(400);
      readEmail(
        await server.request('POST', EMAILS, {
          form: { email: 'two@allowed.org', contact: contact.id },
          ...as,
        }),
      );
    });
  });

  describe('update', () => {
    it('changes digest, paused, ceid and the address, only those supplied', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const id = at(contact.emails).id;
      const digest = readEmail(
        await server.request('PUT', emailUrl(id), { form: { digest: true } }),
      );
      expect(digest).toEqual({ ...at(contact.emails), digest: true });
      const paused = readEmail(
        await server.request('PUT', emailUrl(id), { form: { paused: 'yes', ceid: 'X-9' } }),
      );
      expect(paused).toEqual({ ...at(contact.emails), digest: true, paused: true, ceid: 'X-9' });
      const cleared = readEmail(
        await server.request('PUT', emailUrl(id), { form: { ceid: null, digest: 0, paused: '' } }),
      );
      expect(cleared).toEqual(at(contact.emails));
      const address = freshAddress('moved');
      const renamed = readEmail(
        await server.request('PUT', emailUrl(id), { form: { email: address } }),
      );
      expect(renamed.email).toBe(address);
      expect(readEmail(await server.request('GET', emailUrl(address)))).toEqual(renamed);
      expect(readEmail(await server.request('GET', emailUrl(id)))).toEqual(renamed);
    });

    it('allows changing the case of its own address', async () => {
      const address = freshAddress('case');
      const contact = await postContact(server, { emails: [address] });
      const updated = readEmail(
        await server.request('PUT', emailUrl(at(contact.emails).id), {
          form: { email: address.toUpperCase() },
        }),
      );
      expect(updated.email).toBe(address.toUpperCase());
    });

    it("refuses another contact's address", async () => {
      const taken = freshAddress('taken');
      const owner = await postContact(server, { emails: [taken] });
      const contact = await postContact(server, { emails: [freshAddress()] });
      const response = await server.request('PUT', emailUrl(at(contact.emails).id), {
        form: { email: taken },
      });
      expect(errorMessage(response, 400)).toBe(`${taken} already belongs to contact ${owner.id}`);
    });

    it.each([
      [{ confirmed: 1 }, 'confirmed'],
      [{ contact: 1 }, 'contact'],
      [{ id: 1 }, 'id'],
      [{ unknown: 'x' }, 'unknown'],
    ])('ignores %j and names it, the address unchanged', async (form, name) => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const response = await server.request('PUT', emailUrl(at(contact.emails).id), { form });
      expect(readEmail(response)).toEqual(at(contact.emails));
      expect(response.headers['x-ignored-fields']).toBe(name);
      expect(readEmail(await server.request('GET', emailUrl(at(contact.emails).id)))).toEqual(
        at(contact.emails),
      );
    });

    it.each([
      [{ email: 'nope' }, 'email: is not a valid email address'],
    ])('refuses %j with 400, the address unchanged', async (form, message) => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const response = await server.request('PUT', emailUrl(at(contact.emails).id), { form });
      expect(errorMessage(response, 400)).toContain(message);
      expect(readEmail(await server.request('GET', emailUrl(at(contact.emails).id)))).toEqual(
        at(contact.emails),
      );
    });

    it('answers 404 for an unknown address', async () => {
      expect((await server.request('PUT', emailUrl(999999), { form: { digest: 1 } })).status).toBe(
        404,
      );
    });
  });

  describe('delete', () => {
    it('deletes one address of several, the contact stays', async () => {
      const [a, b] = [freshAddress(), freshAddress()];
      const contact = await postContact(server, { emails: [a, b], lists: ['news'] });
      expect(
        expectStatus(await server.request('DELETE', emailUrl(at(contact.emails).id)), 200),
      ).toEqual({ success: 1 });
      const read = readContact(await server.request('GET', contactUrl(contact.id)));
      expect(read.emails.map((e: { email: string }) => e.email)).toEqual([b]);
      expect(read.lists).toHaveLength(1);
      expect((await server.request('GET', emailUrl(a))).status).toBe(404);
    });

    it('deletes the contact with its last address (spec §4.2 rule), by id or by address', async () => {
      const address = freshAddress('last');
      const contact = await postContact(server, { emails: [address], lists: ['news'] });
      expect(expectStatus(await server.request('DELETE', emailUrl(address)), 200)).toEqual({
        success: 1,
      });
      expect((await server.request('GET', contactUrl(contact.id))).status).toBe(404);
      expect(
        (await server.request('GET', `/api/2/membership/${at(contact.lists).id}/`)).status,
      ).toBe(404);
      expect((await server.request('DELETE', emailUrl(address))).status).toBe(404);
    });

    it('refuses, under limit_lists, to delete a last address whose contact is on other lists', async () => {
      const key = await limitedKey(server, {
        permissions: ['contact', 'limit_lists'],
        limitLists: ['news'],
      });
      const contact = await postContact(server, { emails: [freshAddress()], lists: ['secret'] });
      expect(
        (await server.request('DELETE', emailUrl(at(contact.emails).id), { key })).status,
      ).toBe(403);
      expect((await server.request('GET', contactUrl(contact.id))).status).toBe(200);
      const own = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
      expect((await server.request('DELETE', emailUrl(at(own.emails).id), { key })).status).toBe(
        200,
      );
    });

    it('refuses, under limit_lists, to add, change or delete an address of a contact on other lists', async () => {
      const key = await limitedKey(server, {
        permissions: ['contact', 'limit_lists'],
        limitLists: ['news'],
      });
      const contact = await postContact(server, {
        emails: [freshAddress(), freshAddress()],
        lists: ['news', 'secret'],
      });
      const [first, second] = [at(contact.emails, 0), at(contact.emails, 1)];
      const before = await databaseSnapshot(server.database.db);
      const attempts = [
        await server.request('POST', EMAILS, {
          key,
          form: { email: freshAddress(), contact: contact.id },
        }),
        await server.request('PUT', emailUrl(first.id), { key, form: { paused: 1 } }),
        await server.request('DELETE', emailUrl(second.id), { key }),
      ];
      // Refused without naming the lists the key cannot see (SECURITY.md 33).
      for (const attempt of attempts) expect(errorMessage(attempt, 403)).not.toMatch(/secret/);
      expect(await databaseSnapshot(server.database.db)).toBe(before);

      const own = await postContact(server, {
        emails: [freshAddress(), freshAddress()],
        lists: ['news'],
      });
      expect(
        (
          await server.request('POST', EMAILS, {
            key,
            form: { email: freshAddress(), contact: own.id },
          })
        ).status,
      ).toBe(200);
      expect(
        (await server.request('PUT', emailUrl(at(own.emails, 0).id), { key, form: { paused: 1 } }))
          .status,
      ).toBe(200);
      expect((await server.request('DELETE', emailUrl(at(own.emails, 1).id), { key })).status).toBe(
        200,
      );
    });

    it('deletes the contact when its last two addresses are deleted at once', async () => {
      for (let round = 0; round < 5; round += 1) {
        const contact = await postContact(server, { emails: [freshAddress(), freshAddress()] });
        const answers = await Promise.all(
          contact.emails.map((email) => server.request('DELETE', emailUrl(email.id))),
        );
        expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
        expect((await server.request('GET', contactUrl(contact.id))).status).toBe(404);
      }
    });

    it('needs the contact permission to write, membership to read', async () => {
      const key = await limitedKey(server, { permissions: ['membership'] });
      const contact = await postContact(server, { emails: [freshAddress()] });
      const id = at(contact.emails).id;
      expect((await server.request('GET', emailUrl(id), { key })).status).toBe(200);
      expect(
        (
          await server.request('POST', EMAILS, {
            key,
            form: { email: freshAddress(), contact: contact.id },
          })
        ).status,
      ).toBe(403);
      expect((await server.request('PUT', emailUrl(id), { key, form: { paused: 1 } })).status).toBe(
        403,
      );
      expect((await server.request('DELETE', emailUrl(id), { key })).status).toBe(403);
    });
  });
});

describeEachDialect('emails on a ccid-enabled account', (dialect) => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    const account = await server.createAccount('emails-ccid', { ccid: true });
    key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
  });
  afterAll(() => server.close());

  it('names the contact by its ccid, in requests and answers', async () => {
    const contact = await postContact(server, { emails: [freshAddress()], ccid: '0042' }, { key });
    const unknown = await server.request('POST', EMAILS, {
      key,
      form: { email: freshAddress(), contact: 'crm-x' },
    });
    expect(errorMessage(unknown, 400)).toBe('contact: no contact crm-x in this account');
    await postContact(server, { emails: [freshAddress()], ccid: 'crm-x' }, { key });
    const added = readEmail(
      await server.request('POST', EMAILS, {
        key,
        form: { email: freshAddress(), contact: 'crm-x' },
      }),
    );
    expect(added.contact).toBe('crm-x');
    expect(
      readEmail(await server.request('GET', emailUrl(at(contact.emails).id), { key })).contact,
    ).toBe('0042');
  });
});
