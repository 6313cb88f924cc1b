import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Account } from '../api/schemas/account.ts';
import { Administrator } from '../api/schemas/administrator.ts';
import { ContactPage } from '../api/schemas/contact.ts';
import { List } from '../api/schemas/list.ts';
import { MessagePage } from '../api/schemas/message.ts';
import { verifyPassword } from './auth/keys.ts';
import { HeldPage } from '../api/schemas/held.ts';
import { DEMO_ADMINISTRATOR, runDemo, type DemoResult } from './demo/demo.ts';
import { demoPerson, DEMO_FIELDS } from './demo/demo-data.ts';
import { staleSearchRows } from './test/contact-search-check.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './test/harness.ts';

const asContacts = (response: TestResponse) => ContactPage.parse(response.json);
const asAdmins = (response: TestResponse) =>
  z.strictObject({ data: z.array(Administrator) }).parse(response.json).data;
const asList = (response: TestResponse) => List.parse(response.json);
const ANY_STRING: unknown = expect.any(String);
const ANY_NUMBER: unknown = expect.any(Number);

const TABLES = [
  'accounts',
  'administrators',
  'custom_fields',
  'contacts',
  'contact_values',
  'emails',
  'lists',
  'memberships',
  'messages',
  'outbox',
  'held_messages',
] as const;

async function counts(server: TestServer): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await server.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.count);
  }
  return result;
}

async function passwordHashOf(server: TestServer, username: string): Promise<string> {
  const row = await server.database.db
    .selectFrom('administrators')
    .select('password_hash')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.password_hash ?? '';
}

describe('demo data', () => {
  it('draws the same person for the same index, with 1 to 3 unique addresses', () => {
    const fields = DEMO_FIELDS.demo;
    expect(demoPerson(7, 1, 4, fields)).toEqual(demoPerson(7, 1, 4, fields));
    const addresses = new Set<string>();
    for (let index = 0; index < 2000; index += 1) {
      const person = demoPerson(index, 1, 4, fields);
      expect(person.emails.length).toBeGreaterThanOrEqual(1);
      expect(person.emails.length).toBeLessThanOrEqual(3);
      for (const { email } of person.emails) {
        expect(addresses.has(email)).toBe(false);
        addresses.add(email);
      }
      expect(new Set(person.lists.map((m) => m.list)).size).toBe(person.lists.length);
    }
  });
});

describeEachDialect('listkeeper demo', (dialect) => {
  let server: TestServer;
  let first: DemoResult;
  let before: Record<string, number>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    first = await runDemo(['--contacts', '120'], server.database);
    before = await counts(server);
  });
  afterAll(() => server.close());

  it('prints a global key, an account key and the demo administrator', () => {
    expect(first).toEqual({
      global_key: ANY_STRING,
      account_key: ANY_STRING,
      account: 'demo',
      account_ids: { demo: ANY_NUMBER, 'demo-west': ANY_NUMBER },
      administrator: { username: DEMO_ADMINISTRATOR, password: ANY_STRING },
      people: expect.any(Array) as unknown,
    });
    expect(first.administrator.password.length).toBeGreaterThanOrEqual(12);
  });

  it('posts mail through the pipeline, so the held queue has messages held by several rules', async () => {
    const held = await server.request('GET', '/api/2/held/', { key: first.account_key });
    expect(held.status, held.body).toBe(200);
    const page = HeldPage.parse(held.json);
    expect(page.count).toBeGreaterThanOrEqual(3);
    expect(new Set(page.data.map((message) => message.rule)).size).toBeGreaterThanOrEqual(3);
    expect(page.data.map((message) => message.rule)).toContain('taboo-body');
  });

  it('builds one group of two accounts, each with lists, administrators and (for the demo) N contacts', async () => {
    const accounts = await server.request('GET', '/api/2/accounts/', { key: first.global_key });
    expect(accounts.status).toBe(200);
    const byName = new Map(
      z
        .array(Account)
        .parse(accounts.json)
        .map((a) => [a.name, a]),
    );
    expect(byName.get('demo')?.id).toBe(first.account_ids.demo);
    expect(byName.get('demo')?.lists).toEqual([
      'announcements',
      'community',
      'staff',
      'weekly-digest',
    ]);
    expect(byName.get('demo')?.users.map((u) => u.username)).toContain(DEMO_ADMINISTRATOR);
    expect(byName.get('demo-west')?.lists).toEqual(['west-news', 'west-volunteers']);

    const contacts = asContacts(
      await server.request('GET', '/api/2/contacts/', {
        key: first.account_key,
        query: { limit: 1000 },
      }),
    );
    expect(contacts.count).toBe(120);
    const addressCounts = contacts.data.map((c) => c.emails.length);
    expect(Math.min(...addressCounts)).toBe(1);
    expect(Math.max(...addressCounts)).toBe(3);
    expect(contacts.data.filter((c) => c.city).length).toBeGreaterThan(50);
    expect(contacts.data.some((c) => c.Company)).toBe(true);
    expect(contacts.data.some((c) => c.lists.length > 1)).toBe(true);

    const westId = String(first.account_ids['demo-west']);
    const west = asContacts(
      await server.request('GET', `/api/2/contacts/?account_id=${westId}`, {
        key: first.global_key,
      }),
    );
    expect(west.count).toBe(60);
  });

  it('gives the lists realistic settings', async () => {
    const key = first.account_key;
    const announcements = asList(
      await server.request('GET', '/api/2/lists/announcements/', { key }),
    );
    expect(announcements).toMatchObject({
      moderate: 10,
      message_rejections: 2,
      subject_prefix: '[Announce]',
    });
    expect(announcements.message_footer).toMatch(/unsubscribe/);
    expect(announcements.contacts.length).toBeGreaterThan(0);
    const community = asList(await server.request('GET', '/api/2/lists/community/', { key }));
    expect(community.taboo_body.length).toBeGreaterThan(0);
    expect(community.taboo_headers.length).toBeGreaterThan(0);
    const staff = asList(await server.request('GET', '/api/2/lists/staff/', { key }));
    expect(staff).toMatchObject({
      moderate: 6,
      restrict_post_lists: ['staff'],
      archive_protected: true,
      subscriptions: 'closed',
    });
  });

  it('archives message threads, with replies in their threads and no pending deliveries', async () => {
    const page = MessagePage.parse(
      (
        await server.request('GET', '/api/2/messages/', {
          key: first.account_key,
          query: { limit: 100 },
        })
      ).json,
    );
    expect(page.count).toBeGreaterThanOrEqual(16);
    const byId = new Map(page.data.map((m) => [m.id, m]));
    const replies = page.data.filter((m) => m.parent !== null);
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies) {
      const parent = byId.get(reply.parent ?? 0);
      if (!parent) continue;
      expect(reply.thread_id).toBe(parent.thread_id);
      expect(reply.list).toBe(parent.list);
      expect(reply.time).toBeGreaterThanOrEqual(parent.time);
      expect(reply.subject).toMatch(/^Re: /);
    }
    for (const root of page.data.filter((m) => m.parent === null))
      expect(root.thread_id).toBe(root.id);
    expect(page.data.every((m) => m.content_html.startsWith('<p>'))).toBe(true);
    expect(page.data.every((m) => m.time <= Math.floor(Date.now() / 1000))).toBe(true);
    expect(before.outbox).toBe(0);
  });

  it('writes the rows the API writes: address keys, custom values, search text', async () => {
    const db = server.database.db;
    const contacts = await db
      .selectFrom('contacts')
      .selectAll()
      .where('account_id', '=', first.account_ids.demo ?? 0)
      .orderBy('id')
      .limit(40)
      .execute();
    for (const contact of contacts) {
      const emails = await db
        .selectFrom('emails')
        .selectAll()
        .where('contact_id', '=', contact.id)
        .orderBy('id')
        .execute();
      for (const email of emails) expect(email.email_key).toBe(email.email.toLowerCase());
    }
    // The bulk load fills the search tables once at the end, as their triggers would have.
    expect(await staleSearchRows(db)).toEqual([]);
    // Every contact has its stored document (migration 0500); close() checks they are current.
    const undocumented = await db
      .selectFrom('contact_documents')
      .select('contact_id')
      .where('document', 'is', null)
      .execute();
    expect(undocumented).toEqual([]);
    // Searching finds demo contacts as it finds API-made ones.
    const sample = contacts[0];
    const search = asContacts(
      await server.request('GET', '/api/2/contacts/', {
        key: first.account_key,
        query: { search: sample?.surname.toUpperCase() },
      }),
    );
    expect(search.data.map((c) => c.id)).toContain(sample?.id);
  });

  it('creates the administrators; the demo administrator’s password is the printed one', async () => {
    const users = asAdmins(
      await server.request('GET', '/api/2/users/', { key: first.account_key }),
    );
    expect(users.map((u) => u.username)).toEqual(
      expect.arrayContaining([
        DEMO_ADMINISTRATOR,
        'moderator@demo.example',
        'support@demo.example',
      ]) as unknown,
    );
    const moderator = users.find((u) => u.username === 'moderator@demo.example');
    expect(moderator?.permissions).toEqual(
      expect.arrayContaining(['approval', 'messages', 'limit_lists']),
    );
    expect(moderator?.limit_lists).toEqual(['announcements', 'community']);
    const listAdmin = users.find((u) => u.username === 'community-admin@demo.example');
    expect(listAdmin?.permissions).toContain('limit_lists');
    expect(listAdmin?.permissions).not.toContain('superadmin');
    expect(listAdmin?.limit_lists).toEqual(['community']);
    const globalUsers = asAdmins(
      await server.request('GET', '/api/2/users/', { key: first.global_key }),
    );
    expect(globalUsers.map((u) => u.username)).toContain('operator@demo.example');
    expect(
      await verifyPassword(
        first.administrator.password,
        await passwordHashOf(server, DEMO_ADMINISTRATOR),
      ),
    ).toBe(true);
  });

  it('prints every demo person with a working password and what they can do (issue 17 item 7)', async () => {
    expect(first.people.map((p) => p.username)).toEqual(
      expect.arrayContaining([
        DEMO_ADMINISTRATOR,
        'moderator@demo.example',
        'community-admin@demo.example',
        'operator@demo.example',
      ]) as unknown,
    );
    for (const person of first.people) {
      expect(person.role.length).toBeGreaterThan(10);
      expect(
        await verifyPassword(person.password, await passwordHashOf(server, person.username)),
      ).toBe(true);
    }
    expect(first.people.find((p) => p.username === 'operator@demo.example')?.account).toBeNull();
  });

  it('is idempotent: a second run adds nothing, prints new working keys and a new password', async () => {
    const second = await runDemo(['--contacts', '120'], server.database);
    // No new rows (api_keys, which gains the two new keys, is not counted).
    expect(await counts(server)).toEqual(before);
    expect(second.account_ids).toEqual(first.account_ids);
    expect(second.administrator.username).toBe(DEMO_ADMINISTRATOR);
    expect(second.global_key).not.toBe(first.global_key);
    expect(second.account_key).not.toBe(first.account_key);
    expect(second.administrator.password).not.toBe(first.administrator.password);
    expect((await server.request('GET', '/api/2/lists/', { key: second.account_key })).status).toBe(
      200,
    );
    expect(
      (await server.request('GET', '/api/2/accounts/', { key: second.global_key })).status,
    ).toBe(200);
    const hash = await passwordHashOf(server, DEMO_ADMINISTRATOR);
    expect(await verifyPassword(second.administrator.password, hash)).toBe(true);
    expect(await verifyPassword(first.administrator.password, hash)).toBe(false);
    first = second;
  });

  it('tops the population up to a larger --contacts, skipping addresses taken in between', async () => {
    // Since the last run, a contact was deleted and one added by hand with the next demo address.
    const page = asContacts(
      await server.request('GET', '/api/2/contacts/', {
        key: first.account_key,
        query: { limit: 1 },
      }),
    );
    const victim = String(page.data[0]?.id);
    expect(
      (await server.request('DELETE', `/api/2/contacts/${victim}/`, { key: first.account_key }))
        .status,
    ).toBe(200);
    const next = demoPerson(120, 0x5eed, 4, DEMO_FIELDS.demo).emails[0]?.email;
    const added = await server.request('POST', '/api/2/contacts/', {
      key: first.account_key,
      form: { emails: [next] },
    });
    expect(added.status).toBe(200);

    const third = await runDemo(['--contacts', '150'], server.database);
    const total = asContacts(
      await server.request('GET', '/api/2/contacts/', {
        key: third.account_key,
        query: { limit: 1 },
      }),
    );
    expect(total.count).toBe(150);
    const fourth = await runDemo(['--contacts', '150'], server.database);
    const again = asContacts(
      await server.request('GET', '/api/2/contacts/', {
        key: fourth.account_key,
        query: { limit: 1 },
      }),
    );
    expect(again.count).toBe(150);
  });

  it('keeps the search index whole: searches find what a scan finds, later contacts included', async () => {
    const accountId = first.account_ids.demo ?? 0;
    const db = server.database.db;
    const contacts = await db.selectFrom('contacts').selectAll().where('account_id', '=', accountId).execute();
    const emails = await db.selectFrom('emails').select(['contact_id', 'email']).where('account_id', '=', accountId).execute();
    const values = await db
      .selectFrom('contact_values')
      .innerJoin('contacts', 'contacts.id', 'contact_values.contact_id')
      .select(['contact_id', 'value'])
      .where('contacts.account_id', '=', accountId)
      .execute();
    const lists = await db
      .selectFrom('memberships')
      .innerJoin('lists', 'lists.id', 'memberships.list_id')
      .select(['contact_id', 'lists.name'])
      .where('memberships.account_id', '=', accountId)
      .execute();
    // Every property of each contact, as a scan would read them (spec §4.1: list names too).
    const properties = new Map(
      contacts.map((c) => [c.id, [c.firstname, c.surname, c.notes, c.ccid ?? ''].map((p) => p.toLowerCase())]),
    );
    for (const { contact_id, text } of [
      ...emails.map((e) => ({ contact_id: e.contact_id, text: e.email })),
      ...values.map((v) => ({ contact_id: v.contact_id, text: v.value })),
      ...lists.map((l) => ({ contact_id: l.contact_id, text: l.name })),
    ]) {
      properties.get(contact_id)?.push(text.toLowerCase());
    }
    const search = async (term: string) =>
      asContacts(
        await server.request('GET', '/api/2/contacts/', {
          key: first.account_key,
          query: { search: term, limit: 1 },
        }),
      ).count;
    // The demo fills the search tables in one statement each after its inserts (demo.repository.ts).
    const terms = [...new Set(contacts.map((row) => row.surname.toLowerCase()))].slice(0, 8);
    expect(terms.length).toBeGreaterThan(3);
    for (const term of [...terms, 'news', 'example', 'zz']) {
      const scanned = [...properties.values()].filter((texts) => texts.some((text) => text.includes(term))).length;
      expect(await search(term), term).toBe(scanned);
    }
    // Its triggers are back: a contact written afterwards is found too.
    const added = await server.request('POST', '/api/2/contacts/', {
      key: first.account_key,
      form: { surname: 'Quartzfield', emails: ['zeb.quartzfield@example.org'] },
    });
    expect(added.status).toBe(200);
    expect(await search('quartzfield')).toBe(1);
    expect(await staleSearchRows(db)).toEqual([]);
  });

  it.runIf(dialect === 'postgres')(
    'leaves PostgreSQL planner statistics of the tables it filled',
    async () => {
      const analyzed = await sql<{ relname: string }>`select relname from pg_stat_user_tables
      where last_analyze is not null and relname in ('contacts', 'emails', 'memberships', 'contact_values')`.execute(
        server.database.db,
      );
      expect(analyzed.rows.map((row) => row.relname).sort()).toEqual([
        'contact_values',
        'contacts',
        'emails',
        'memberships',
      ]);
    },
  );

  it.runIf(dialect === 'postgres')(
    'builds the GIN search indexes after a load that doubles the contacts, and keeps them otherwise (issue 28 item 7)',
    async () => {
      const db = server.database.db;
      const ginIndexes = async () =>
        (
          await sql<{ name: string; definition: string; oid: number }>`select indexname as name,
            indexdef as definition, (quote_ident(indexname))::regclass::oid::int as oid
          from pg_indexes where tablename = 'contact_search' and indexdef like '% USING gin %'
          order by indexname`.execute(db)
        ).rows;
      const before = await ginIndexes();
      expect(before.map((index) => index.name)).toEqual([
        'contact_search_grams',
        'contact_search_trgm',
      ]);
      const contactsNow = Number(
        (await db.selectFrom('contacts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
      );
      // A top-up to at least twice the contacts: dropped and built again, the same definitions.
      const grown = await runDemo(['--contacts', String(2 * contactsNow)], server.database);
      const rebuilt = await ginIndexes();
      expect(rebuilt.map(({ name, definition }) => ({ name, definition }))).toEqual(
        before.map(({ name, definition }) => ({ name, definition })),
      );
      for (const [at, index] of rebuilt.entries()) expect(index.oid).not.toBe(before[at]?.oid);
      // A smaller top-up keeps them and writes their entries row by row.
      await runDemo(['--contacts', String(2 * contactsNow + 10)], server.database);
      expect(await ginIndexes()).toEqual(rebuilt);
      // Both indexes answer (terms in no list name, which a search matches too, spec §4.1).
      for (const term of ['xu', 'q', 'ng', 'son']) {
        const found = asContacts(
          await server.request('GET', '/api/2/contacts/', {
            key: grown.account_key,
            query: { search: term, limit: 1 },
          }),
        ).count;
        const scanned = await sql<{ n: string }>`select count(*) as n from contact_search s
          join accounts a on a.id = s.account_id
          where a.name = 'demo' and strpos(s.search_text, ${term}) > 0`.execute(db);
        expect(found, term).toBe(Number(scanned.rows[0]?.n));
      }
      expect(await staleSearchRows(db)).toEqual([]);
    },
  );

  it('refuses a --contacts that is no whole number in range', async () => {
    for (const value of ['-1', 'many', '1.5', '2000000']) {
      await expect(runDemo(['--contacts', value], server.database)).rejects.toThrow(/--contacts/);
    }
  });
});
