import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from './http/http-error.ts';
import { createCustomField, listCustomFields } from './services/custom-fields.service.ts';
import {
  addField,
  anyNumber,
  errorMessage,
  freshAddress,
  matching,
  postContact,
  readContact,
} from './test/address-book-fixtures.ts';
import { useCliDataDir } from './test/cli-runner.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

const contactUrl = (id: string | number) => `/api/2/contacts/${encodeURIComponent(String(id))}/`;

describeEachDialect('custom fields (spec §2.1)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function refusal(
    input: { name: string; identifier?: string },
    accountId = server.account.id,
  ): Promise<HttpError> {
    try {
      await createCustomField(server.database.db, { accountId, ...input });
    } catch (error) {
      if (error instanceof HttpError) return error;
      throw error;
    }
    throw new Error(`${JSON.stringify(input)} was accepted`);
  }

  describe('definition', () => {
    it('defines fields per account, with or without an identifier', async () => {
      const account = await server.createAccount('fields-def');
      const a = await createCustomField(server.database.db, {
        accountId: account.id,
        name: 'Birthday',
        identifier: 'dob',
      });
      const b = await createCustomField(server.database.db, {
        accountId: account.id,
        name: 'Employer',
      });
      expect(a).toEqual({ id: anyNumber, name: 'Birthday', identifier: 'dob' });
      expect(b).toEqual({ id: anyNumber, name: 'Employer', identifier: null });
      expect(await listCustomFields(server.database.db, account.id)).toEqual([a, b]);
      // The same names are free in another account.
      await createCustomField(server.database.db, {
        accountId: server.account.id,
        name: 'Birthday',
        identifier: 'dob',
      });
    });

    it('refuses a name or identifier that another field of the account uses, with 409', async () => {
      const account = await server.createAccount('fields-dup');
      await createCustomField(server.database.db, {
        accountId: account.id,
        name: 'Region',
        identifier: 'region',
      });
      for (const input of [
        { name: 'Region' },
        { name: 'region' },
        { name: 'Other', identifier: 'region' },
        { name: 'x', identifier: 'Region' },
      ]) {
        expect((await refusal(input, account.id)).status).toBe(409);
      }
    });

    it.each([
      [{ name: '' }],
      [{ name: '   ' }],
      [{ name: 'x'.repeat(256) }],
      [{ name: 'ok', identifier: 'has space' }],
      [{ name: 'ok', identifier: 'x'.repeat(65) }],
      [{ name: 'emails' }],
      [{ name: 'Fine', identifier: 'id' }],
      [{ name: 'ccid' }],
    ])('refuses %j with 400', async (input) => {
      expect((await refusal(input)).status).toBe(400);
    });
  });

  describe('on contacts', () => {
    let account: { id: number };
    let key: string;
    beforeAll(async () => {
      account = await server.createAccount('fields-http');
      key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
      await addField(server, 'Membership number', 'member_no', account.id);
      await addField(server, 'Pronouns', undefined, account.id);
    });

    it('shows every defined field, "" when unset, keyed by identifier or else name', async () => {
      const contact = await postContact(server, { emails: [freshAddress()] }, { key });
      expect(contact).toMatchObject({ member_no: '', Pronouns: '' });
      expect(contact).not.toHaveProperty('Membership number');
    });

    it('shows a field defined after the contact was created', async () => {
      const contact = await postContact(
        server,
        { emails: [freshAddress()], Pronouns: 'they' },
        { key },
      );
      await addField(server, 'Late field', 'late', account.id);
      const read = readContact(await server.request('GET', contactUrl(contact.id), { key }));
      expect(read).toMatchObject({ Pronouns: 'they', late: '' });
    });

    it("ignores another account's fields, naming them, and stores nothing of them", async () => {
      await addField(server, 'Elsewhere', 'elsewhere');
      const response = await server.request('POST', '/api/2/contacts/', {
        key,
        form: { emails: [freshAddress()], elsewhere: 'x-from-elsewhere' },
      });
      expect(response.status).toBe(200);
      expect(response.body).not.toContain('x-from-elsewhere');
      expect(response.headers['x-ignored-fields']).toBe('elsewhere');
      const stored = await server.database.db.selectFrom('contact_values').select('value').execute();
      expect(stored.map((row) => row.value)).not.toContain('x-from-elsewhere');
    });

    it('keeps values as given: text, unicode, and a repeated key is refused', async () => {
      const contact = await postContact(
        server,
        { emails: [freshAddress()], member_no: '  007 ', Pronouns: 'élan ✓' },
        { key },
      );
      expect(contact).toMatchObject({ member_no: '  007 ', Pronouns: 'élan ✓' });
      const twice = await server.request('POST', '/api/2/contacts/', {
        key,
        form: { emails: [freshAddress()], Pronouns: ['a', 'b'] },
      });
      expect(errorMessage(twice, 400)).toMatch(/Pronouns: given more than once/);
    });

    it('does not let a key named like an object prototype reach anything', async () => {
      const response = await server.request('POST', '/api/2/contacts/', {
        key,
        body: `emails=${encodeURIComponent(freshAddress())}&__proto__=x&constructor=y`,
        contentType: 'application/x-www-form-urlencoded',
      });
      // Neither names a field of this account: both are ignored and named, the contact is plain.
      expect(response.status).toBe(200);
      expect(response.headers['x-ignored-fields']).toBe('__proto__, constructor');
      const contact = JSON.parse(response.body) as Record<string, unknown>;
      expect(Object.getPrototypeOf(contact)).toBe(Object.prototype);
      expect(Object.hasOwn(contact, 'constructor')).toBe(false);
    });

    it('shows a field named like an object prototype as an ordinary key', async () => {
      const account = await server.createAccount('fields-proto');
      await createCustomField(server.database.db, { accountId: account.id, name: '__proto__' });
      await createCustomField(server.database.db, { accountId: account.id, name: 'constructor' });
      const as = { key: server.globalKey, query: { account_id: account.id } };
      const created = await server.request('POST', '/api/2/contacts/', {
        ...as,
        form: { emails: [freshAddress()], constructor: 'c' },
      });
      const id = String((created.json as { id: number }).id);
      for (const response of [created, await server.request('GET', contactUrl(id), as)]) {
        expect(response.body).toContain('"__proto__":""');
        const contact = JSON.parse(response.body) as Record<string, unknown>;
        expect(Object.hasOwn(contact, '__proto__') && contact.constructor).toBe('c');
      }
    });
  });
});

describe('listkeeper field create', () => {
  const { cli } = useCliDataDir();
  const run = async (...args: string[]) => {
    const { code, json } = await cli(args);
    return { code, json };
  };

  it('defines a field and prints it as JSON; refuses duplicates and unknown accounts', async () => {
    expect((await run('account', 'create', 'cli-fields')).code).toBe(0);
    const created = await run(
      'field',
      'create',
      '--account',
      'cli-fields',
      '--name',
      'Favourite colour',
      '--identifier',
      'colour',
    );
    expect(created).toEqual({
      code: 0,
      json: {
        id: anyNumber,
        name: 'Favourite colour',
        identifier: 'colour',
        account_id: anyNumber,
      },
    });
    const plain = await run('field', 'create', '--account', 'cli-fields', '--name', 'Shoe size');
    expect(plain.json).toMatchObject({ name: 'Shoe size', identifier: null });
    const duplicate = await run('field', 'create', '--account', 'cli-fields', '--name', 'colour');
    expect(duplicate.code).toBe(1);
    expect(duplicate.json).toMatchObject({
      is_error: true,
      message: matching(/already exists/),
    });
    expect((await run('field', 'create', '--account', 'nope', '--name', 'x')).json).toMatchObject({
      is_error: true,
    });
    expect((await run('field', 'create', '--account', 'cli-fields')).json).toMatchObject({
      is_error: true,
      message: '--name N is required',
    });
  }, 60_000);
});
