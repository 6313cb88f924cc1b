import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addList,
  errorMessage,
  freshAddress,
  idsOf,
  limitedKey,
  postContact,
  readPage,
} from './test/address-book-fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

const CONTACTS = '/api/2/contacts/';

// The `list` extension of GET /contacts/ (CONTACT_QUERY_EXTENSIONS): a members page in one request.
describeEachDialect('contacts filtered by list (extension)', (dialect) => {
  let server: TestServer;
  const members: number[] = [];
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await addList(server, 'club');
    await addList(server, 'other');
    for (let i = 0; i < 5; i++) {
      const contact = await postContact(server, {
        emails: [freshAddress(i % 2 === 0 ? 'even' : 'odd')],
        lists: ['club'],
      });
      members.push(Number(contact.id));
    }
    await postContact(server, { emails: [freshAddress('even')], lists: ['other'] });
    await postContact(server, { emails: [freshAddress('even')] });
  });
  afterAll(() => server.close());

  const get = (query: Record<string, unknown>, key?: string) =>
    server.request('GET', CONTACTS, { query, key });

  it('answers the members of the list only, paged, with their count', async () => {
    const first = readPage(await get({ list: 'club', limit: 2 }));
    expect(first.count).toBe(5);
    expect(idsOf(first).map(Number)).toEqual(members.slice(0, 2));
    const last = readPage(await get({ list: 'club', limit: 2, page: 3 }));
    expect(idsOf(last).map(Number)).toEqual(members.slice(4));
    for (const contact of [...first.data, ...last.data]) {
      expect(contact.lists.map((membership) => membership.list)).toContain('club');
    }
  });

  it('combines with search', async () => {
    const page = readPage(await get({ list: 'club', search: 'even' }));
    expect(idsOf(page).map(Number)).toEqual([members[0], members[2], members[4]]);
    expect(page.count).toBe(3);
  });

  it('refuses an unknown list, and a list outside a limit_lists key', async () => {
    expect(errorMessage(await get({ list: 'nosuch' }), 404)).toMatch(/List/);
    const key = await limitedKey(server, { permissions: ['contact', 'limit_lists'], limitLists: ['other'] });
    expect(errorMessage(await get({ list: 'club' }, key), 403)).toMatch(/limit_lists/);
    expect(readPage(await get({ list: 'other' }, key)).count).toBe(1);
  });
});
