import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomField, FieldCollection, FieldDeleted } from '../api/schemas/field.ts';
import {
  addField,
  anyNumber,
  errorMessage,
  expectStatus,
  freshAddress,
  limitedKey,
  postContact,
  readContact,
  readPage,
} from './test/address-book-fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

const FIELDS = '/api/2/fields/';
const anyString: unknown = expect.any(String);
const fieldUrl = (id: number | string) => `${FIELDS}${id}/`;
const contactUrl = (id: number | string) => `/api/2/contacts/${id}/`;

/**
 * Issue 27 item 1: the custom fields extension (operations.ts `fields.*`): list with counts and the
 * administrators limited to each (spec §2.6 limit_metadata), define, rename (values stay,
 * limit_metadata follows in the same transaction), delete (values go, limit_metadata loses it),
 * each shown at once by GET /contacts/ (stored documents, services/contact-document-store.ts).
 */
describeEachDialect('custom fields extension (issue 27 item 1)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  /** A fresh account with a superadmin key, so each test starts from no field. */
  async function freshAccount(name: string) {
    const account = await server.createAccount(name);
    const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    return { account, key };
  }
  const list = async (key: string) =>
    FieldCollection.parse(
      (expectStatus(await server.request('GET', FIELDS, { key }), 200) as { data: unknown }).data,
    );
  const limitOf = async (key: string) => {
    const caller = expectStatus(await server.request('GET', '/api/2/caller/', { key }), 200) as {
      administrator: { limit_metadata: string[] };
    };
    return caller.administrator.limit_metadata;
  };

  it('lists the fields with how many contacts have a value and who is limited to each', async () => {
    const { account, key } = await freshAccount('fields-list');
    await addField(server, 'Shoe size', 'shoe', account.id);
    await addField(server, 'Pronouns', undefined, account.id);
    await postContact(server, { emails: [freshAddress()], shoe: '41' }, { key });
    await postContact(server, { emails: [freshAddress()], shoe: '38', Pronouns: 'she' }, { key });
    await postContact(server, { emails: [freshAddress()] }, { key });
    // By identifier, by name (spec §2.6 allows either), and an entry without the permission.
    await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['shoe'],
    });
    await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['Shoe size', 'Pronouns'],
    });
    await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact'],
      limitMetadata: ['Pronouns'],
    });

    const fields = await list(key);
    expect(
      fields.map(({ administrators, ...field }) => ({
        ...field,
        administrators: administrators?.length,
      })),
    ).toEqual([
      {
        id: anyNumber,
        name: 'Shoe size',
        identifier: 'shoe',
        key: 'shoe',
        contacts: 2,
        administrators: 2,
      },
      {
        id: anyNumber,
        name: 'Pronouns',
        identifier: null,
        key: 'Pronouns',
        contacts: 1,
        administrators: 2,
      },
    ]);
    expect(fields[1]?.administrators?.map((a) => a.limited)).toEqual([true, false]);
    expect(fields[0]?.administrators?.[0]).toEqual({
      id: anyNumber,
      username: null,
      description: anyString,
      limited: true,
    });

    // Whoever may read contacts reads the fields; administrators only with superadmin (spec §4.6).
    const reader = await server.createKey({ accountId: account.id, permissions: ['membership'] });
    const read = await list(reader);
    expect(read.map((field) => field.contacts)).toEqual([2, 1]);
    expect(read.every((field) => !('administrators' in field))).toBe(true);
    // And the answer costs one object a field (spec §8 rule 1).
    const response = await server.request('GET', FIELDS, { key: reader });
    expect(Number(response.headers['x-ratelimit-remaining'])).toBe(
      Number(
        (await server.request('GET', FIELDS, { key: reader })).headers['x-ratelimit-remaining'],
      ) + 2,
    );
  });

  it('shows a limit_metadata key only its own fields, and the others do not exist for it', async () => {
    const { account } = await freshAccount('fields-limited');
    const shoe = await addField(server, 'Shoe size', 'shoe', account.id);
    const secret = await addField(server, 'Salary', 'salary', account.id);
    const key = await limitedKey(server, {
      accountId: account.id,
      permissions: ['superadmin', 'limit_metadata'],
      limitMetadata: ['shoe'],
    });
    expect((await list(key)).map((field) => field.id)).toEqual([shoe.id]);
    for (const [method, form] of [
      ['PUT', { name: 'Pay' }],
      ['DELETE', undefined],
    ] as const)
      expect(
        errorMessage(await server.request(method, fieldUrl(secret.id), { key, form }), 404),
      ).toMatch(/not found/i);
    // A new field would be one it may not see.
    expect(
      errorMessage(await server.request('POST', FIELDS, { key, form: { name: 'Other' } }), 403),
    ).toMatch(/limit_metadata/);
  });

  it('defines a field (general_settings), refusing taken and standard names on the field they name', async () => {
    const { account, key } = await freshAccount('fields-define');
    const settings = await server.createKey({
      accountId: account.id,
      permissions: ['general_settings'],
    });
    const created = CustomField.parse(
      expectStatus(
        await server.request('POST', FIELDS, {
          key: settings,
          form: { name: 'Shoe size', identifier: 'shoe' },
        }),
        200,
      ),
    );
    expect(created).toEqual({
      id: anyNumber,
      name: 'Shoe size',
      identifier: 'shoe',
      key: 'shoe',
      contacts: 0,
    });
    // A superadmin also learns who a name already limits (limit_metadata may name any field).
    await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['vip'],
    });
    const vip = CustomField.parse(
      expectStatus(
        await server.request('POST', FIELDS, { key, form: { name: 'vip', identifier: '' } }),
        200,
      ),
    );
    expect(vip).toMatchObject({
      identifier: null,
      key: 'vip',
      administrators: [{ limited: true }],
    });
    // The contacts show it at once, "" where unset (spec §2.1).
    const contact = await postContact(server, { emails: [freshAddress()], shoe: '44' }, { key });
    expect(contact).toMatchObject({ shoe: '44', vip: '' });

    expect(
      errorMessage(await server.request('POST', FIELDS, { key, form: { name: 'shoe' } }), 409),
    ).toMatch(/^name: .*already exists/);
    expect(
      errorMessage(
        await server.request('POST', FIELDS, { key, form: { name: 'Other', identifier: 'vip' } }),
        409,
      ),
    ).toMatch(/^identifier: /);
    expect(
      errorMessage(await server.request('POST', FIELDS, { key, form: { name: 'emails' } }), 400),
    ).toMatch(/^name: cannot be emails, a standard contact field/);
    expect(
      errorMessage(
        await server.request('POST', FIELDS, {
          key,
          form: { name: 'Ok', identifier: 'has space' },
        }),
        400,
      ),
    ).toMatch(/^identifier: /);
    expect(errorMessage(await server.request('POST', FIELDS, { key, form: {} }), 400)).toMatch(
      /^name: /,
    );
    // Not with the contact permission alone: the fields are the account's shape, not a contact.
    const contacts = await server.createKey({ accountId: account.id, permissions: ['contact'] });
    expect(
      (await server.request('POST', FIELDS, { key: contacts, form: { name: 'Nope' } })).status,
    ).toBe(403);
    // A list-limited key changes no contact on other lists, and every field is on every contact.
    const listLimited = await limitedKey(server, {
      accountId: account.id,
      permissions: ['general_settings', 'limit_lists'],
      limitLists: [],
    });
    expect(
      errorMessage(
        await server.request('POST', FIELDS, { key: listLimited, form: { name: 'Nope' } }),
        403,
      ),
    ).toMatch(/limit_lists/);
    expect((await list(key)).map((field) => field.key)).toEqual(['shoe', 'vip']);
  });

  it('renames a field: values stay, contacts show the new key at once, limit_metadata follows', async () => {
    const { account, key } = await freshAccount('fields-rename');
    const shoe = await addField(server, 'Shoe size', 'shoe', account.id);
    const other = await addField(server, 'Other', undefined, account.id);
    const contact = await postContact(server, { emails: [freshAddress()], shoe: '41' }, { key });
    const byKey = await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['shoe', 'Other'],
    });
    const byName = await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['Shoe size'],
    });
    // Read once, so that its stored document is the one a stale read would serve.
    expect(
      readPage(await server.request('GET', '/api/2/contacts/', { key })).data[0],
    ).toMatchObject({ shoe: '41' });

    const renamed = CustomField.parse(
      expectStatus(
        await server.request('PUT', fieldUrl(shoe.id), { key, form: { identifier: 'shoe_size' } }),
        200,
      ),
    );
    expect(renamed).toMatchObject({
      name: 'Shoe size',
      identifier: 'shoe_size',
      key: 'shoe_size',
      contacts: 1,
    });
    expect(renamed.administrators?.length).toBe(2);
    const page = readPage(await server.request('GET', '/api/2/contacts/', { key }));
    expect(page.data[0]).toMatchObject({ shoe_size: '41' });
    expect(page.data[0]).not.toHaveProperty('shoe');
    expect(readContact(await server.request('GET', contactUrl(contact.id), { key }))).toMatchObject(
      { shoe_size: '41' },
    );
    // Each entry now names the new key; the limited keys still see and write their field.
    expect(await limitOf(byKey)).toEqual(['shoe_size', 'Other']);
    expect(await limitOf(byName)).toEqual(['shoe_size']);
    expect(
      readContact(await server.request('GET', contactUrl(contact.id), { key: byName })),
    ).toMatchObject({ shoe_size: '41' });

    // Without an identifier the name is the key (spec §2.1); the limits follow again.
    await server.request('PUT', fieldUrl(shoe.id), { key, form: { name: 'Shoe', identifier: '' } });
    expect(await limitOf(byName)).toEqual(['Shoe']);
    expect(readContact(await server.request('GET', contactUrl(contact.id), { key }))).toMatchObject(
      { Shoe: '41' },
    );
    // A key another field holds is refused, and nothing changes.
    expect(
      errorMessage(
        await server.request('PUT', fieldUrl(shoe.id), { key, form: { name: 'Other' } }),
        409,
      ),
    ).toMatch(/^name: /);
    expect(await limitOf(byKey)).toEqual(['Shoe', 'Other']);
    expect(
      errorMessage(
        await server.request('PUT', fieldUrl(other.id + 1000), { key, form: { name: 'X' } }),
        404,
      ),
    ).toMatch(/not found/i);
    expect(
      errorMessage(await server.request('PUT', fieldUrl('abc'), { key, form: { name: 'X' } }), 404),
    ).toMatch(/not found/i);
  });

  it("renames no other account's field, and leaves its administrators alone", async () => {
    const a = await freshAccount('fields-tenant-a');
    const b = await freshAccount('fields-tenant-b');
    const field = await addField(server, 'Shoe size', 'shoe', a.account.id);
    const bLimited = await limitedKey(server, {
      accountId: b.account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['shoe'],
    });
    expect(
      (await server.request('PUT', fieldUrl(field.id), { key: b.key, form: { name: 'Mine' } }))
        .status,
    ).toBe(404);
    expect((await server.request('DELETE', fieldUrl(field.id), { key: b.key })).status).toBe(404);
    await server.request('PUT', fieldUrl(field.id), { key: a.key, form: { identifier: 'feet' } });
    expect(await limitOf(bLimited)).toEqual(['shoe']);
  });

  it('deletes a field: its values go a chunk at a time, contacts stop showing it, limits lose it', async () => {
    const { account, key } = await freshAccount('fields-delete');
    const shoe = await addField(server, 'Shoe size', 'shoe', account.id);
    await addField(server, 'Pronouns', undefined, account.id);
    const first = await postContact(
      server,
      { emails: [freshAddress()], shoe: '41', Pronouns: 'he' },
      { key },
    );
    // More values than one chunk deletes (chunked-deletes.repository.ts DELETE_CHUNK, 500).
    await addValues(server, account.id, shoe.id, 1200);
    const onlyShoe = await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['shoe'],
    });
    const both = await limitedKey(server, {
      accountId: account.id,
      permissions: ['contact', 'limit_metadata'],
      limitMetadata: ['Shoe size', 'Pronouns'],
    });
    expect(readContact(await server.request('GET', contactUrl(first.id), { key }))).toMatchObject({
      shoe: '41',
    });

    const answer = FieldDeleted.parse(
      expectStatus(await server.request('DELETE', fieldUrl(shoe.id), { key }), 200),
    );
    expect(answer.success).toBe(1);
    expect(answer.field).toMatchObject({ id: shoe.id, key: 'shoe', contacts: 1201 });
    expect(answer.field.administrators?.map((a) => a.limited)).toEqual([true, true]);

    const read = readContact(await server.request('GET', contactUrl(first.id), { key }));
    expect(read).not.toHaveProperty('shoe');
    expect(read).toMatchObject({ Pronouns: 'he' });
    expect(
      readPage(
        await server.request('GET', '/api/2/contacts/', { key, query: { limit: 1000 } }),
      ).data.some((c) => 'shoe' in c),
    ).toBe(false);
    expect(
      await server.database.db
        .selectFrom('contact_values')
        .select('field_id')
        .where('field_id', '=', shoe.id)
        .execute(),
    ).toEqual([]);
    // Limited to it alone: limited to no field at all, never to more.
    expect(await limitOf(onlyShoe)).toEqual([]);
    expect(
      readContact(await server.request('GET', contactUrl(first.id), { key: onlyShoe })),
    ).not.toHaveProperty('Pronouns');
    expect(await limitOf(both)).toEqual(['Pronouns']);
    // A field defined again under the old key is not theirs by an old entry.
    await server.request('POST', FIELDS, { key, form: { name: 'Shoe size', identifier: 'shoe' } });
    expect(
      readContact(await server.request('GET', contactUrl(first.id), { key: onlyShoe })),
    ).not.toHaveProperty('shoe');
    // Gone: a second delete is a 404 in the spec's shape.
    expect(errorMessage(await server.request('DELETE', fieldUrl(shoe.id), { key }), 404)).toMatch(
      /not found/i,
    );
  });

  it('leaves the CLI and demo call as it was', async () => {
    const { account } = await freshAccount('fields-cli');
    const created = await addField(server, 'Birthday', 'dob', account.id);
    expect(created).toEqual({ id: anyNumber, name: 'Birthday', identifier: 'dob' });
  });

  describe('against a spec-only server (EXTENSIONS=off)', () => {
    let plain: TestServer;
    beforeAll(async () => {
      plain = await startTestServer(dialect, { extensions: false });
    });
    afterAll(() => plain.close());

    it('answers the spec 404 on every fields path', async () => {
      for (const [method, url] of [
        ['GET', FIELDS],
        ['POST', FIELDS],
        ['PUT', fieldUrl(1)],
        ['DELETE', fieldUrl(1)],
      ] as const)
        expect(
          errorMessage(
            await plain.request(method, url, {
              form: method === 'GET' ? undefined : { name: 'x' },
            }),
            404,
          ),
        ).toBe('The API request does not exist');
    });
  });
});

/** `count` contacts of the account, each with a value of the field, written in bulk. */
async function addValues(server: TestServer, accountId: number, fieldId: number, count: number) {
  const created = server.clock.now().toISOString();
  const contacts = await server.database.db
    .insertInto('contacts')
    .values(
      Array.from({ length: count }, (_, i) => ({
        account_id: accountId,
        firstname: `Bulk ${i}`,
        created,
      })),
    )
    .returning('id')
    .execute();
  for (let start = 0; start < contacts.length; start += 400)
    await server.database.db
      .insertInto('contact_values')
      .values(
        contacts
          .slice(start, start + 400)
          .map(({ id }) => ({ contact_id: id, field_id: fieldId, value: String(id % 50) })),
      )
      .execute();
}
