import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addField,
  addList,
  anyNumber,
  at,
  errorMessage,
  expectStatus,
  freshAddress,
  idsOf,
  limitedKey,
  postContact,
  readContact,
  readPage,
  setAccountSettings,
} from './test/address-book-fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

const CONTACTS = '/api/2/contacts/';
const contactUrl = (id: string | number) => `${CONTACTS}${encodeURIComponent(String(id))}/`;

describeEachDialect('contacts (spec §4.1)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await addList(server, 'news');
    await addList(server, 'events');
    await addField(server, 'Favourite colour', 'colour');
    await addField(server, 'Shoe size');
  });
  afterAll(() => server.close());

  describe('create', () => {
    it('creates a contact from one address, with every field of spec §2.1', async () => {
      const address = freshAddress();
      const contact = await postContact(server, { emails: [address] });
      expect(contact).toMatchObject({
        ccid: null,
        firstname: '',
        surname: '',
        notes: '',
        lists: [],
        colour: '',
        'Shoe size': '',
      });
      expect(typeof contact.id).toBe('number');
      expect(Number.isNaN(Date.parse(contact.created))).toBe(false);
      expect(contact.emails).toEqual([
        {
          id: anyNumber,
          contact: contact.id,
          email: address,
          digest: false,
          paused: false,
          confirmed: false,
          ceid: null,
        },
      ]);
    });

    it('takes names, notes, repeated emails and lists, and custom fields by identifier or by name', async () => {
      const [a, b] = [freshAddress(), freshAddress()];
      const contact = await postContact(server, {
        firstname: 'Ada',
        surname: 'Lovelace',
        notes: 'Analyst',
        emails: [a, b],
        lists: ['news', 'events'],
        colour: 'green',
        'Shoe size': '38',
      });
      expect(contact).toMatchObject({
        firstname: 'Ada',
        surname: 'Lovelace',
        notes: 'Analyst',
        colour: 'green',
        'Shoe size': '38',
      });
      expect(contact.emails.map((e) => e.email)).toEqual([a, b]);
      expect(contact.lists).toEqual([
        { id: anyNumber, contact: contact.id, list: 'news', digest: null },
        { id: anyNumber, contact: contact.id, list: 'events', digest: null },
      ]);
      // A field with an identifier is also writable by its name; it reads under its identifier.
      const byName = await postContact(server, {
        emails: [freshAddress()],
        'Favourite colour': 'blue',
      });
      expect(byName.colour).toBe('blue');
      expect(byName).not.toHaveProperty('Favourite colour');
    });

    it('round-trips through GET', async () => {
      const created = await postContact(server, {
        emails: [freshAddress()],
        firstname: 'Grace',
        lists: ['news'],
        colour: 'red',
      });
      expect(readContact(await server.request('GET', contactUrl(created.id)))).toEqual(created);
    });

    it.each([
      [{}, 'emails: is required'],
      [{ emails: [''] }, 'emails: needs at least one email address'],
      [{ emails: ['not-an-address'] }, 'is not a valid email address'],
      [{ emails: [freshAddress()], lists: ['bad name!'] }, 'lists.0'],
    ])('refuses %j with 400', async (form, message) => {
      expect(errorMessage(await server.request('POST', CONTACTS, { form }), 400)).toContain(
        message,
      );
    });

    it('refuses an unknown list with 400 naming it, and creates nothing', async () => {
      const address = freshAddress();
      const response = await server.request('POST', CONTACTS, {
        form: { emails: [address], lists: ['news', 'nope'] },
      });
      expect(errorMessage(response, 400)).toBe('Unknown list: nope');
      expect(
        readPage(await server.request('GET', CONTACTS, { query: { email: address } })).count,
      ).toBe(0);
    });

    it('ignores read-only fields and custom fields the account does not define, naming them (SECURITY.md 17)', async () => {
      const response = await server.request('POST', CONTACTS, {
        form: { emails: [freshAddress()], height: '180', id: '987654', created: '2020-01-01' },
      });
      const contact = readContact(response);
      expect(contact).not.toHaveProperty('height');
      expect(contact.id).not.toBe(987654);
      expect(contact.created).not.toBe('2020-01-01');
      expect(response.headers['x-ignored-fields']).toBe('id, created, height');
      const two = await server.request('POST', CONTACTS, {
        form: { emails: [freshAddress()], confirmed: '1', account: '2' },
      });
      expect(readContact(two).emails[0]?.confirmed).toBe(false);
      expect(two.headers['x-ignored-fields']).toBe('confirmed, account');
    });

    it('refuses a field given both by name and by identifier', async () => {
      const response = await server.request('POST', CONTACTS, {
        form: { emails: [freshAddress()], colour: 'red', 'Favourite colour': 'blue' },
      });
      expect(errorMessage(response, 400)).toMatch(/given twice/);
    });

    it('refuses an address another contact of the account holds, in any case, naming that contact', async () => {
      const address = freshAddress('taken');
      const owner = await postContact(server, { emails: [address] });
      const response = await server.request('POST', CONTACTS, {
        form: { emails: [freshAddress(), address.toUpperCase()] },
      });
      expect(errorMessage(response, 400)).toBe(`${address} already belongs to contact ${owner.id}`);
    });

    it('refuses the same address twice in one request', async () => {
      const address = freshAddress();
      const response = await server.request('POST', CONTACTS, {
        form: { emails: [address, address.toUpperCase()] },
      });
      expect(errorMessage(response, 400)).toMatch(/given twice/);
    });

    it('never answers 500 to parallel creates of one address: one wins, the rest get 400 or 409', async () => {
      const address = freshAddress('race');
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          server.request('POST', CONTACTS, { form: { emails: [address] } }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.every((status) => [200, 400, 409].includes(status))).toBe(true);
      expect(
        readPage(await server.request('GET', CONTACTS, { query: { email: address } })).count,
      ).toBe(1);
    });

    it('lets another account hold the same address', async () => {
      const other = await server.createAccount('create-other');
      const address = freshAddress();
      await postContact(server, { emails: [address] });
      await postContact(
        server,
        { emails: [address] },
        { key: server.globalKey, query: { account_id: other.id } },
      );
    });

    it('refuses a ccid another contact holds with 409 (spec §7)', async () => {
      await postContact(server, { emails: [freshAddress()], ccid: 'plain-1' });
      const response = await server.request('POST', CONTACTS, {
        form: { emails: [freshAddress()], ccid: 'plain-1' },
      });
      expect(errorMessage(response, 409)).toMatch(/plain-1/);
    });

    it('enforces the account restrict_contact expressions (spec §2.7)', async () => {
      const account = await server.createAccount('restricted');
      await setAccountSettings(server, account.id, { restrict_contact: ['@example\\.com$'] });
      const as = { key: server.globalKey, query: { account_id: account.id } };
      const refused = await server.request('POST', CONTACTS, {
        form: { emails: ['x@example.org'] },
        ...as,
      });
      expect(errorMessage(refused, 400)).toMatch(/x@example\.org.*restrict_contact/);
      await postContact(server, { emails: ['X@EXAMPLE.COM'] }, as);
    });
  });

  describe('get one', () => {
    it.each(['999999', 'abc', '0', '-1', '1.5', '99999999999999999999'])(
      'answers 404 for %s',
      async (id) => {
        expect(errorMessage(await server.request('GET', contactUrl(id)), 404)).toBe(
          'Contact not found',
        );
      },
    );

    it("never shows another account's contact (SECURITY.md 15)", async () => {
      const other = await server.createAccount('get-other');
      const theirs = await postContact(
        server,
        { emails: [freshAddress()] },
        { key: server.globalKey, query: { account_id: other.id } },
      );
      expect((await server.request('GET', contactUrl(theirs.id))).status).toBe(404);
      expect(
        (await server.request('PUT', contactUrl(theirs.id), { form: { firstname: 'x' } })).status,
      ).toBe(404);
      expect((await server.request('DELETE', contactUrl(theirs.id))).status).toBe(404);
      const own = readContact(
        await server.request('GET', contactUrl(theirs.id), {
          key: server.globalKey,
          query: { account_id: other.id },
        }),
      );
      expect(own.id).toBe(theirs.id);
    });

    it('is allowed to a key with the membership permission, but not its writes', async () => {
      const key = await limitedKey(server, { permissions: ['membership'] });
      const contact = await postContact(server, { emails: [freshAddress()] });
      expect((await server.request('GET', contactUrl(contact.id), { key })).status).toBe(200);
      expect((await server.request('GET', CONTACTS, { key })).status).toBe(200);
      expect(
        (await server.request('POST', CONTACTS, { key, form: { emails: [freshAddress()] } }))
          .status,
      ).toBe(403);
      expect(
        (await server.request('PUT', contactUrl(contact.id), { key, form: { notes: 'x' } })).status,
      ).toBe(403);
      expect((await server.request('DELETE', contactUrl(contact.id), { key })).status).toBe(403);
    });
  });

  describe('update', () => {
    it('changes only the supplied fields (spec §1 rule 6)', async () => {
      const contact = await postContact(server, {
        emails: [freshAddress()],
        firstname: 'Alan',
        surname: 'Turing',
        notes: 'n',
        lists: ['news'],
        colour: 'red',
        'Shoe size': '44',
      });
      const updated = readContact(
        await server.request('PUT', contactUrl(contact.id), {
          form: { surname: 'Mathison', colour: 'blue' },
        }),
      );
      expect(updated).toEqual({ ...contact, surname: 'Mathison', colour: 'blue' });
      expect(readContact(await server.request('GET', contactUrl(contact.id)))).toEqual(updated);
    });

    it('clears a custom field with an empty value, and a field by its name', async () => {
      const contact = await postContact(server, {
        emails: [freshAddress()],
        colour: 'red',
        'Shoe size': '40',
      });
      const form = { 'Favourite colour': '', 'Shoe size': '41' };
      expect(
        readContact(await server.request('PUT', contactUrl(contact.id), { form })),
      ).toMatchObject({ colour: '', 'Shoe size': '41' });
    });

    it('sets and clears the ccid on an account without ccid', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const put = async (form: Record<string, unknown>) =>
        server.request('PUT', contactUrl(contact.id), { form });
      expect(readContact(await put({ ccid: 'c-77' })).ccid).toBe('c-77');
      expect(readContact(await put({ ccid: null })).ccid).toBe(null);
      await postContact(server, { emails: [freshAddress()], ccid: 'c-78' });
      expect(errorMessage(await put({ ccid: 'c-78' }), 409)).toMatch(/c-78/);
    });

    it('sets the addresses and memberships a PUT names (test/real-clients.test.ts has the rest)', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] });
      const address = freshAddress();
      const updated = readContact(
        await server.request('PUT', contactUrl(contact.id), {
          form: { emails: [address], lists: ['news'] },
        }),
      );
      expect(updated.emails.map((e) => e.email)).toEqual([address]);
      expect(updated.lists.map((m) => m.list)).toEqual(['news']);
      expect(readContact(await server.request('GET', contactUrl(contact.id)))).toEqual(updated);
    });

    it('ignores unknown and read-only fields, changing only the fields it takes', async () => {
      const contact = await postContact(server, { emails: [freshAddress()], firstname: 'Kept' });
      for (const [form, ignored] of [
        [{ firstname: 'x', weight: '3' }, 'weight'],
        [{ firstname: 'y', id: '3' }, 'id'],
        [{ firstname: 'z', created: 'now' }, 'created'],
      ] as const) {
        const response = await server.request('PUT', contactUrl(contact.id), { form });
        expect(readContact(response)).toEqual({ ...contact, firstname: form.firstname });
        expect(response.headers['x-ignored-fields']).toBe(ignored);
      }
    });

    it('answers 404 for a contact that does not exist, without creating it', async () => {
      const address = freshAddress();
      const response = await server.request('PUT', contactUrl(888888), {
        form: { emails: [address] },
      });
      expect(errorMessage(response, 404)).toBe('Contact not found');
      expect(
        readPage(await server.request('GET', CONTACTS, { query: { email: address } })).count,
      ).toBe(0);
    });
  });

  describe('delete', () => {
    it('deletes the contact with its addresses and memberships', async () => {
      const address = freshAddress();
      const contact = await postContact(server, {
        emails: [address],
        lists: ['news'],
        colour: 'x',
      });
      expect(expectStatus(await server.request('DELETE', contactUrl(contact.id)), 200)).toEqual({
        success: 1,
      });
      expect((await server.request('GET', contactUrl(contact.id))).status).toBe(404);
      expect((await server.request('GET', `/api/2/emails/${at(contact.emails).id}/`)).status).toBe(
        404,
      );
      expect(
        (await server.request('GET', `/api/2/membership/${at(contact.lists).id}/`)).status,
      ).toBe(404);
      // The address is free again.
      await postContact(server, { emails: [address] });
      expect(errorMessage(await server.request('DELETE', contactUrl(contact.id)), 404)).toBe(
        'Contact not found',
      );
    });
  });
});

describeEachDialect('contacts: get many (spec §4.1)', (dialect) => {
  let server: TestServer;
  const ids: (number | string)[] = [];
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await addList(server, 'news');
    await addField(server, 'Department', 'dept');
    for (let i = 0; i < 105; i += 1) {
      const contact = await postContact(server, {
        emails: [`bulk${i}@example.net`],
        firstname: `Person${i}`,
        ...(i % 10 === 0 ? { lists: ['news'] } : {}),
      });
      ids.push(contact.id);
    }
  });
  afterAll(() => server.close());

  const list = async (query: Record<string, unknown> = {}, key?: string) =>
    readPage(await server.request('GET', CONTACTS, { query, key }));

  it('answers count, page and data, 100 by default, in id order', async () => {
    const page = await list();
    expect(page.count).toBe(105);
    expect(page.page).toBe(1);
    expect(idsOf(page)).toEqual(ids.slice(0, 100));
    const second = await list({ page: 2 });
    expect(second).toMatchObject({ count: 105, page: 2 });
    expect(idsOf(second)).toEqual(ids.slice(100));
  });

  it('pages with limit; a page past the end is empty', async () => {
    expect(idsOf(await list({ page: 3, limit: 7 }))).toEqual(ids.slice(14, 21));
    expect(await list({ page: 1000, limit: 1000 })).toEqual({ count: 105, page: 1000, data: [] });
    expect((await list({ limit: 1000 })).data).toHaveLength(105);
    expect(await list({ page: 9007199254740991, limit: 1000 })).toMatchObject({
      count: 105,
      data: [],
    });
    // The count holds on every page, whether it is full, partial or past the end.
    for (const page of [1, 2, 3, 4]) expect((await list({ page, limit: 50 })).count).toBe(105);
  });

  it.each([
    [{ limit: 1001 }, 'limit: is at most 1000'],
    [{ limit: 0 }, 'limit'],
    [{ limit: -1 }, 'limit'],
    [{ limit: 'abc' }, 'limit'],
    [{ page: 0 }, 'page: starts at 1'],
    [{ page: 1.5 }, 'page'],
    [{ sort: 'id' }, 'Unknown field: sort'],
  ])('refuses %j with 400', async (query, message) => {
    expect(errorMessage(await server.request('GET', CONTACTS, { query }), 400)).toContain(message);
  });

  it('counts an account through creations and deletions, apart from other accounts', async () => {
    const other = await server.createAccount('counted');
    const as = { key: server.globalKey, query: { account_id: other.id } };
    // limit=1 keeps every page full, so each answer counts rather than deducing from the page.
    const count = async () =>
      readPage(await server.request('GET', CONTACTS, { ...as, query: { ...as.query, limit: 1 } }))
        .count;
    const created: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await server.request('POST', CONTACTS, {
        ...as,
        form: { emails: [freshAddress()] },
      });
      created.push((expectStatus(response, 200) as { id: number }).id);
    }
    expect(await count()).toBe(3);
    expectStatus(await server.request('DELETE', contactUrl(created[0] ?? 0), as), 200);
    expect(await count()).toBe(2);
    expect((await list({ limit: 1 })).count).toBe(105);
  });

  it('filters by email, whatever its case', async () => {
    const page = await list({ email: 'BULK7@example.NET' });
    expect(page.count).toBe(1);
    expect(idsOf(page)).toEqual([ids[7]]);
    expect((await list({ email: 'nobody@example.net' })).count).toBe(0);
  });

  it('filters by id (the service id)', async () => {
    expect(idsOf(await list({ id: ids[3] }))).toEqual([ids[3]]);
    expect(await list({ id: 'abc' })).toEqual({ count: 0, page: 1, data: [] });
    expect((await list({ id: 99999999999 })).count).toBe(0);
  });

  it('filters orphans: contacts on no list (no value needed)', async () => {
    const response = readPage(await server.request('GET', `${CONTACTS}?orphans`));
    expect(response.count).toBe(105 - 11);
    expect(response.data.every((c) => c.lists.length === 0)).toBe(true);
    const combined = await list({ orphans: true, search: 'person10' });
    // person10, person100..104 hold the text; 10 and 100 are on a list.
    expect(combined.data.map((c) => c.firstname)).toEqual([
      'Person101',
      'Person102',
      'Person103',
      'Person104',
    ]);
  });

  describe('search', () => {
    it('matches a case-insensitive substring of names, notes, ccid, addresses and custom values', async () => {
      const target = await postContact(server, {
        emails: ['Quirky.Address@Example.COM', 'second@elsewhere.io'],
        firstname: 'Hypatia',
        surname: 'Alexandrinus',
        notes: 'Mathematician & astronomer',
        ccid: 'CC-4711',
        dept: 'Philosophy',
      });
      for (const term of [
        'hypat',
        'ALEXANDR',
        'hypatia alexandrinus',
        'astronomer',
        'cc-47',
        'quirky.address@',
        'ELSEWHERE',
        'philosoph',
      ]) {
        const page = await list({ search: term });
        expect(idsOf(page), term).toEqual([target.id]);
        expect(page.count).toBe(1);
      }
      expect((await list({ search: 'bulk1' })).count).toBe(16); // bulk1, bulk10..19, bulk100..104
      expect((await list({ search: 'bulk1', limit: 5, page: 2 })).count).toBe(16);
    });

    it('takes LIKE wildcards literally', async () => {
      const target = await postContact(server, {
        emails: [freshAddress()],
        notes: '100% sure_thing',
      });
      expect(idsOf(await list({ search: '100%' }))).toEqual([target.id]);
      expect(idsOf(await list({ search: 'e_t' }))).toEqual([target.id]);
      expect((await list({ search: '%' })).count).toBe(1);
      expect((await list({ search: '\\' })).count).toBe(0);
    });

    it('follows every write: contact updates, address create, update and delete', async () => {
      const contact = await postContact(server, { emails: ['before.change@example.org'] });
      const found = async (term: string) => idsOf(await list({ search: term }));

      await server.request('PUT', contactUrl(contact.id), {
        form: { surname: 'Zzyzx', dept: 'Ornithology' },
      });
      expect(await found('zzyzx')).toEqual([contact.id]);
      expect(await found('ornitho')).toEqual([contact.id]);

      const form = { email: 'Added.Later@example.org', contact: contact.id };
      const added = expectStatus(await server.request('POST', '/api/2/emails/', { form }), 200) as {
        id: number;
      };
      expect(await found('added.later')).toEqual([contact.id]);

      await server.request('PUT', `/api/2/emails/${added.id}/`, {
        form: { email: 'renamed.now@example.org' },
      });
      expect(await found('added.later')).toEqual([]);
      expect(await found('renamed.now')).toEqual([contact.id]);

      await server.request('DELETE', `/api/2/emails/${added.id}/`);
      expect(await found('renamed.now')).toEqual([]);
      expect(await found('before.change')).toEqual([contact.id]);

      await server.request('PUT', contactUrl(contact.id), { form: { dept: '' } });
      expect(await found('ornitho')).toEqual([]);
    });

    it('matches every word of the search, each in any property and in any order', async () => {
      const target = await postContact(server, {
        emails: [freshAddress()],
        firstname: 'Wilhelmina',
        surname: 'Quaxley',
        notes: 'Zeppelin pilot',
      });
      for (const term of ['quaxley zeppelin', '  ZEPPELIN\twilhelm ', 'pilot quax wil', 'ot qu']) {
        expect(idsOf(await list({ search: term })), term).toEqual([target.id]);
      }
      expect((await list({ search: 'quaxley nowhere' })).count).toBe(0);
      // With an id or an address, the search narrows that one contact.
      expect(idsOf(await list({ search: 'zeppelin pi', id: target.id }))).toEqual([target.id]);
      expect((await list({ search: 'zeppelin', id: ids[0] })).count).toBe(0);
      const address = at(target.emails).email;
      expect(idsOf(await list({ search: 'quaxley', email: address }))).toEqual([target.id]);
      expect((await list({ search: 'nowhere', email: address })).count).toBe(0);
      // Blank: no search at all.
      expect((await list({ search: '   ', limit: 1 })).count).toBe(
        (await list({ limit: 1 })).count,
      );
    });

    it('finds contacts by the names of their lists, as memberships and names change', async () => {
      const contact = await postContact(server, { emails: [freshAddress()], firstname: 'Listed' });
      const found = async (term: string) => idsOf(await list({ search: term }));
      await addList(server, 'orchid-growers');
      expect(await found('orchid')).toEqual([]);
      const joined = expectStatus(
        await server.request('POST', '/api/2/membership/', {
          form: { contact: contact.id, list: 'orchid-growers' },
        }),
        200,
      ) as { id: number };
      expect(await found('ORCHID-gro')).toEqual([contact.id]);
      expect(await found('orchid listed')).toEqual([contact.id]);
      expect((await list({ search: 'orchid', orphans: true })).count).toBe(0);

      expectStatus(
        await server.request('PUT', '/api/2/lists/orchid-growers/', {
          form: { name: 'cactus-club' },
        }),
        200,
      );
      expect(await found('orchid')).toEqual([]);
      expect(await found('cactus')).toEqual([contact.id]);

      expectStatus(await server.request('DELETE', `/api/2/membership/${joined.id}/`), 200);
      expect(await found('cactus')).toEqual([]);
      expect(idsOf(await list({ search: 'listed', orphans: true }))).toEqual([contact.id]);
    });

    it('follows custom values: written, changed, and gone with their field', async () => {
      await addField(server, 'Hobby', 'hobby');
      const contact = await postContact(server, { emails: [freshAddress()], hobby: 'Falconry' });
      const found = async (term: string) => idsOf(await list({ search: term }));
      expect(await found('falconr')).toEqual([contact.id]);
      await server.request('PUT', contactUrl(contact.id), { form: { hobby: 'Origami' } });
      expect(await found('falconr')).toEqual([]);
      expect(await found('origami')).toEqual([contact.id]);
      // However a field goes (here behind the API's back), its values stop matching with it.
      await server.database.db
        .deleteFrom('custom_fields')
        .where('identifier', '=', 'hobby')
        .execute();
      expect(await found('origami')).toEqual([]);
    });

    it('keeps the orphans exact through memberships added and removed', async () => {
      const orphans = async () => (await list({ orphans: true, limit: 1 })).count;
      const before = await orphans();
      const contact = await postContact(server, { emails: [freshAddress()] });
      expect(await orphans()).toBe(before + 1);
      const joined = expectStatus(
        await server.request('POST', '/api/2/membership/', {
          form: { contact: contact.id, list: 'news' },
        }),
        200,
      ) as { id: number };
      expect(await orphans()).toBe(before);
      expectStatus(await server.request('DELETE', `/api/2/membership/${joined.id}/`), 200);
      expect(await orphans()).toBe(before + 1);
      expectStatus(await server.request('DELETE', contactUrl(contact.id)), 200);
      expect(await orphans()).toBe(before);
    });

    it('compares a long term whole, not only the part the index looks up', async () => {
      const start = 'quasimodo-'.repeat(7); // 70 characters: beyond the 64 the index looks up
      const target = await postContact(server, {
        emails: [freshAddress()],
        notes: `${start}bells`,
      });
      await postContact(server, { emails: [freshAddress()], notes: `${start}gargoyles` });
      expect(idsOf(await list({ search: `${start}BELLS` }))).toEqual([target.id]);
      expect((await list({ search: `${start}bellz` })).count).toBe(0);
      // An address is looked up by the end of its local part (`.ringer@`), and compared whole.
      const ringer = await postContact(server, { emails: ['quasi.ringer@notre.example'] });
      await postContact(server, { emails: ['quasi.ringer@gargoyle.example'] });
      expect(idsOf(await list({ search: 'Quasi.Ringer@NOTRE' }))).toEqual([ringer.id]);
      expect((await list({ search: 'quasi.ringer@nowhere' })).count).toBe(0);
      expect((await list({ search: 'pasi.ringer@notre' })).count).toBe(0);
      // The longest search the contract takes, every word of it counted.
      expect((await list({ search: `${'w '.repeat(90)}${start}bells` })).count).toBe(0);
    });

    it('finds a term of one or two characters as a substring anywhere, as any other term', async () => {
      // Terms with no trigram, looked up in the index of short substrings (migration
      // 2026-11-27T0000): the same meaning as a long term's, case folded, accents kept.
      await addList(server, 'qxclub');
      const named = await postContact(server, { emails: ['qx+tag@short.example'], surname: 'Qx' });
      const inside = await postContact(server, { emails: [freshAddress()], notes: 'aqxb zebra' });
      const member = await postContact(server, { emails: [freshAddress()], lists: ['qxclub'] });
      const thorn = await postContact(server, {
        emails: [freshAddress()],
        firstname: 'Þóra',
        notes: 'great 👍🏽, 👩‍💻',
      });
      const found = async (search: string, query: Record<string, unknown> = {}) =>
        idsOf(await list({ search, ...query })).sort((a, b) => Number(a) - Number(b));
      const [n, i, m, t] = [named.id, inside.id, member.id, thorn.id];
      // A list's name is searched as the contacts' text is: its members are found too.
      expect(await found('qx')).toEqual([n, i, m]);
      expect(await found('QX')).toEqual([n, i, m]);
      expect((await list({ search: 'qx', limit: 1, page: 3 })).count).toBe(3);
      expect(await found('+t')).toEqual([n]);
      expect(await found('qx zebra')).toEqual([i]);
      expect(await found('zebra QX')).toEqual([i]);
      expect(await found('qx', { id: n })).toEqual([n]);
      expect(await found('qx', { id: t })).toEqual([]);
      expect(await found('qx', { orphans: true })).toEqual([n, i]);
      expect(await found('qx', { email: 'qx+tag@short.example' })).toEqual([n]);
      // Characters beyond ASCII: one, two, four bytes of UTF-8, a pair that is one emoji.
      expect(await found('þ')).toEqual([t]);
      expect(await found('Þó')).toEqual([t]);
      expect(await found('þo')).toEqual([]);
      expect(await found('👍🏽')).toEqual([t]);
      expect(await found('👍')).toEqual([t]);
      // The zero-width joiner (a format character) keeps a term from the index: compared whole.
      expect(await found('\u200d💻')).toEqual([t]);
      // The index follows each write.
      await server.request('PUT', contactUrl(thorn.id), { form: { firstname: 'Olaf', notes: '' } });
      expect(await found('þ')).toEqual([]);
      expect(await found('👍')).toEqual([]);
      expectStatus(await server.request('DELETE', contactUrl(named.id)), 200);
      expect(await found('qx')).toEqual([i, m]);
    });

    it('never finds another account’s contacts', async () => {
      const other = await server.createAccount('searched-elsewhere');
      const as = { key: server.globalKey };
      const theirs = await postContact(
        server,
        { emails: ['xenophon.unique@example.org'], notes: 'Anabasis' },
        { ...as, query: { account_id: other.id } },
      );
      const ours = await postContact(server, { emails: [freshAddress()], notes: 'Anabasis' });
      expect(idsOf(await list({ search: 'anabasis' }))).toEqual([ours.id]);
      expect((await list({ search: 'xenophon' })).count).toBe(0);
      const elsewhere = readPage(
        await server.request('GET', CONTACTS, {
          ...as,
          query: { account_id: other.id, search: 'anabasis' },
        }),
      );
      expect(idsOf(elsewhere)).toEqual([theirs.id]);
    });

    it.runIf(dialect === 'postgres')(
      'has a trigram index on the search text when pg_trgm is available',
      async () => {
        const available =
          await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(
            server.database.db,
          );
        const index =
          await sql`select 1 from pg_indexes where indexname = 'contact_search_trgm'`.execute(
            server.database.db,
          );
        expect(index.rows.length).toBe(available.rows.length > 0 ? 1 : 0);
      },
    );

    it('counts the page length against the rate limit (spec §8 rule 1)', async () => {
      const first = await server.request('GET', CONTACTS, { query: { limit: 5 } });
      const second = await server.request('GET', CONTACTS, { query: { limit: 5 } });
      expect(
        Number(first.headers['x-ratelimit-remaining']) -
          Number(second.headers['x-ratelimit-remaining']),
      ).toBe(5);
    });
  });
});

describeEachDialect('contacts on a ccid-enabled account (spec §4.1 rules 1 and 2)', (dialect) => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    const account = await server.createAccount('with-ccid', { ccid: true });
    key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    await addList(server, 'news', account.id);
  });
  afterAll(() => server.close());

  it('addresses contacts by ccid, in paths and in the objects that name them', async () => {
    const contact = await postContact(
      server,
      { emails: [freshAddress()], ccid: 'crm-001', lists: ['news'] },
      { key },
    );
    expect(contact.ccid).toBe('crm-001');
    expect(at(contact.emails).contact).toBe('crm-001');
    expect(at(contact.lists).contact).toBe('crm-001');
    expect(readContact(await server.request('GET', contactUrl('crm-001'), { key }))).toEqual(
      contact,
    );
    // The service id does not address it: the ccid replaces it (spec §2.1).
    expect((await server.request('GET', contactUrl(contact.id), { key })).status).toBe(404);
    const email = expectStatus(
      await server.request('GET', `/api/2/emails/${at(contact.emails).id}/`, { key }),
      200,
    );
    expect(email).toMatchObject({ contact: 'crm-001' });
  });

  it('answers 409 to a POST of an existing ccid (rule 2)', async () => {
    await postContact(server, { emails: [freshAddress()], ccid: 'crm-dup' }, { key });
    const response = await server.request('POST', CONTACTS, {
      key,
      form: { emails: [freshAddress()], ccid: 'crm-dup' },
    });
    expect(errorMessage(response, 409)).toMatch(/crm-dup/);
  });

  it('requires a ccid on POST', async () => {
    const response = await server.request('POST', CONTACTS, {
      key,
      form: { emails: [freshAddress()] },
    });
    expect(errorMessage(response, 400)).toMatch(/^ccid: is required/);
  });

  it('creates the contact on a PUT to a ccid that does not exist (rule 1)', async () => {
    const url = contactUrl('crm/new 1');
    const created = readContact(
      await server.request('PUT', url, {
        key,
        form: { emails: [freshAddress()], firstname: 'New', lists: ['news'] },
      }),
    );
    expect(created).toMatchObject({
      ccid: 'crm/new 1',
      firstname: 'New',
      lists: [{ list: 'news', contact: 'crm/new 1' }],
    });
    expect(readContact(await server.request('GET', url, { key }))).toEqual(created);
    // Now that it exists, the same PUT updates it, its addresses included.
    const address = freshAddress();
    expect(
      readContact(
        await server.request('PUT', url, { key, form: { emails: [address] } }),
      ).emails.map((e) => e.email),
    ).toEqual([address]);
    expect(
      readContact(await server.request('PUT', url, { key, form: { surname: 'Made' } })).surname,
    ).toBe('Made');
  });

  it('needs emails to create through PUT, and a body ccid that matches the path', async () => {
    const noEmails = await server.request('PUT', contactUrl('crm-none'), {
      key,
      form: { firstname: 'x' },
    });
    expect(errorMessage(noEmails, 400)).toMatch(/^emails: is required/);
    const mismatch = await server.request('PUT', contactUrl('crm-a'), {
      key,
      form: { emails: [freshAddress()], ccid: 'crm-b' },
    });
    expect(errorMessage(mismatch, 400)).toMatch(/^ccid: differs/);
    expect((await server.request('GET', contactUrl('crm-none'), { key })).status).toBe(404);
    expect((await server.request('GET', contactUrl('crm-a'), { key })).status).toBe(404);
  });

  it('renames a ccid, refuses to remove it or to take another contact’s', async () => {
    await postContact(server, { emails: [freshAddress()], ccid: 'crm-old' }, { key });
    await postContact(server, { emails: [freshAddress()], ccid: 'crm-other' }, { key });
    const put = async (form: Record<string, unknown>) =>
      server.request('PUT', contactUrl('crm-old'), { key, form });
    expect(errorMessage(await put({ ccid: null }), 400)).toMatch(/^ccid: cannot be removed/);
    expect((await put({ ccid: 'crm-other' })).status).toBe(409);
    expect(readContact(await put({ ccid: 'crm-renamed' })).ccid).toBe('crm-renamed');
    expect((await server.request('GET', contactUrl('crm-old'), { key })).status).toBe(404);
    expect((await server.request('GET', contactUrl('crm-renamed'), { key })).status).toBe(200);
  });

  it('deletes by ccid', async () => {
    await postContact(server, { emails: [freshAddress()], ccid: 'crm-gone' }, { key });
    expect(
      expectStatus(await server.request('DELETE', contactUrl('crm-gone'), { key }), 200),
    ).toEqual({ success: 1 });
    expect((await server.request('GET', contactUrl('crm-gone'), { key })).status).toBe(404);
  });
});

describeEachDialect('contacts under limit_metadata and limit_lists (spec §2.6)', (dialect) => {
  let server: TestServer;
  let metadataKey: string;
  let listsKey: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await addList(server, 'news');
    await addList(server, 'secret');
    await addField(server, 'Public note', 'public');
    await addField(server, 'Salary');
    await addField(server, 'Team');
    // Fields are named by identifier when defined, otherwise by name.
    metadataKey = await limitedKey(server, {
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['public', 'Team'],
    });
    listsKey = await limitedKey(server, {
      permissions: ['contact', 'limit_lists'],
      limitLists: ['news'],
    });
  });
  afterAll(() => server.close());

  it('shows a metadata-limited key only its fields', async () => {
    const contact = await postContact(server, {
      emails: [freshAddress()],
      public: 'hello',
      Salary: '99999',
      Team: 'blue',
    });
    const seen = readContact(
      await server.request('GET', contactUrl(contact.id), { key: metadataKey }),
    );
    expect(seen).toMatchObject({ public: 'hello', Team: 'blue' });
    expect(seen).not.toHaveProperty('Salary');
    const page = readPage(
      await server.request('GET', CONTACTS, { key: metadataKey, query: { id: contact.id } }),
    );
    expect(at(page.data)).not.toHaveProperty('Salary');
  });

  it('forbids a metadata-limited key to write other fields (403), and allows its own', async () => {
    const contact = await postContact(server, { emails: [freshAddress()], Salary: '1' });
    const put = await server.request('PUT', contactUrl(contact.id), {
      key: metadataKey,
      form: { Salary: '2' },
    });
    expect(errorMessage(put, 403)).toMatch(/Salary/);
    const post = await server.request('POST', CONTACTS, {
      key: metadataKey,
      form: { emails: [freshAddress()], Salary: '2' },
    });
    expect(post.status).toBe(403);
    const form = { 'Public note': 'set by name', Team: 'red' };
    expect(
      readContact(await server.request('PUT', contactUrl(contact.id), { key: metadataKey, form })),
    ).toMatchObject({
      public: 'set by name',
      Team: 'red',
    });
    expect(readContact(await server.request('GET', contactUrl(contact.id))).Salary).toBe('1');
  });

  it('does not let a metadata-limited key find contacts by values it cannot see', async () => {
    const contact = await postContact(server, {
      emails: ['visible.person@example.org'],
      firstname: 'Visible',
      public: 'openvalue',
      Salary: 'hiddenvalue',
    });
    const search = async (term: string, key?: string) =>
      idsOf(readPage(await server.request('GET', CONTACTS, { key, query: { search: term } })));
    expect(await search('hiddenvalue')).toEqual([contact.id]);
    expect(await search('hiddenvalue', metadataKey)).toEqual([]);
    expect(await search('openvalue', metadataKey)).toEqual([contact.id]);
    expect(await search('VISIBLE.PERSON', metadataKey)).toEqual([contact.id]);
    expect(await search('visible', metadataKey)).toEqual([contact.id]);
  });

  it('lets a list-limited key find contacts by the names of its own lists only', async () => {
    const contact = await postContact(server, {
      emails: [freshAddress()],
      firstname: 'Membered',
      lists: ['news', 'secret'],
    });
    const search = async (term: string, key?: string) =>
      idsOf(readPage(await server.request('GET', CONTACTS, { key, query: { search: term } })));
    expect(await search('secret membered')).toEqual([contact.id]);
    expect(await search('secret membered', listsKey)).toEqual([]);
    expect(await search('news membered', listsKey)).toEqual([contact.id]);
    expect(await search('news membered', metadataKey)).toEqual([contact.id]);
  });

  it('shows a list-limited key only the memberships of its lists', async () => {
    const contact = await postContact(server, {
      emails: [freshAddress()],
      lists: ['news', 'secret'],
    });
    const seen = readContact(
      await server.request('GET', contactUrl(contact.id), { key: listsKey }),
    );
    expect(seen.lists.map((m) => m.list)).toEqual(['news']);
  });

  // SECURITY.md 33 (issue 16 finding 8): a hidden list answers as a missing one.
  it('answers a list-limited key adding contacts to other lists as for a missing list', async () => {
    const response = await server.request('POST', CONTACTS, {
      key: listsKey,
      form: { emails: [freshAddress()], lists: ['news', 'secret'] },
    });
    expect(errorMessage(response, 400)).toBe('Unknown list: secret');
    const missing = await server.request('POST', CONTACTS, {
      key: listsKey,
      form: { emails: [freshAddress()], lists: ['news', 'nosuchlist'] },
    });
    expect(errorMessage(missing, 400)).toBe('Unknown list: nosuchlist');
    const ok = await postContact(
      server,
      { emails: [freshAddress()], lists: ['news'] },
      { key: listsKey },
    );
    expect(ok.lists.map((m) => m.list)).toEqual(['news']);
  });

  it('forbids a list-limited key to change a contact that is on other lists', async () => {
    const contact = await postContact(server, {
      emails: [freshAddress()],
      lists: ['news', 'secret'],
    });
    const refused = await server.request('PUT', contactUrl(contact.id), {
      key: listsKey,
      form: { firstname: 'Mallory' },
    });
    // Refused without naming the lists it cannot see (SECURITY.md 33).
    expect(errorMessage(refused, 403)).not.toMatch(/secret/);
    expect(readContact(await server.request('GET', contactUrl(contact.id))).firstname).toBe(
      contact.firstname,
    );
    const own = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
    const changed = await server.request('PUT', contactUrl(own.id), {
      key: listsKey,
      form: { firstname: 'Ada' },
    });
    expect(readContact(changed).firstname).toBe('Ada');
  });

  it('forbids a list-limited key to delete a contact that is on other lists', async () => {
    const contact = await postContact(server, { emails: [freshAddress()], lists: ['secret'] });
    expect((await server.request('DELETE', contactUrl(contact.id), { key: listsKey })).status).toBe(
      403,
    );
    expect((await server.request('GET', contactUrl(contact.id))).status).toBe(200);
    const own = await postContact(server, { emails: [freshAddress()], lists: ['news'] });
    expect((await server.request('DELETE', contactUrl(own.id), { key: listsKey })).status).toBe(
      200,
    );
  });
});
