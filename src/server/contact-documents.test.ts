import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Contact } from '../api/schemas/contact.ts';
import { DOCUMENT_BATCH, renderMissingDocumentsWithin } from './services/background-document-renderer.ts';
import {
  addField,
  addList,
  freshAddress,
  limitedKey,
  postContact,
  readContact,
} from './test/address-book-fixtures.ts';
import { staleContactDocuments } from './test/contact-documents-check.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

const contactUrl = (id: string | number) => `/api/2/contacts/${encodeURIComponent(String(id))}/`;

/**
 * Stored contact documents (migration 0500): a single-contact GET sends the stored JSON, so a
 * stored document must never lag behind its rows. Every suite's close() checks that on its whole
 * database (test/harness.ts); here each kind of change is made on purpose, including behind the
 * server's back, and the answer is read after it.
 */
describeEachDialect('stored contact documents (migration 0500)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const documentOf = async (id: number) =>
    (
      await server.database.db
        .selectFrom('contact_documents')
        .select('document')
        .where('contact_id', '=', id)
        .executeTakeFirstOrThrow()
    ).document;

  /** A new contact; this server's account has no ccid, so its id is the service id. */
  async function newContact(lists: string[] = []): Promise<Contact & { id: number }> {
    const contact = await postContact(server, { emails: [freshAddress('doc')], firstname: 'Ada', lists });
    if (typeof contact.id !== 'number') throw new Error(`expected a service id, got ${contact.id}`);
    return { ...contact, id: contact.id };
  }

  async function expectCurrent(): Promise<void> {
    expect(await staleContactDocuments(server.database.db)).toEqual([]);
  }

  it('stores the document with each write, and a GET answers exactly it', async () => {
    const created = await newContact();
    const stored = await documentOf(created.id);
    expect(stored).not.toBeNull();
    const response = await server.request('GET', contactUrl(created.id));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(stored);
    expect(readContact(response)).toEqual(created);
  });

  it('keeps it current through address, membership and contact writes of the API', async () => {
    await addList(server, 'doc-news');
    const contact = await newContact();
    const email = await server.request('POST', '/api/2/emails/', {
      form: { email: freshAddress('doc-second'), contact: contact.id },
    });
    expect(email.status).toBe(200);
    const emailId = (email.json as { id: number }).id;
    expect((await server.request('PUT', `/api/2/emails/${emailId}/`, { form: { paused: true } })).status).toBe(200);
    const membership = await server.request('POST', '/api/2/membership/', { form: { contact: contact.id, list: 'doc-news' } });
    expect(membership.status).toBe(200);
    const membershipId = (membership.json as { id: number }).id;
    expect((await server.request('PUT', `/api/2/membership/${membershipId}/`, { form: { digest: '1' } })).status).toBe(200);
    expect((await server.request('PUT', contactUrl(contact.id), { form: { surname: 'Byron' } })).status).toBe(200);
    expect(await documentOf(contact.id)).not.toBeNull();
    await expectCurrent();

    const read = readContact(await server.request('GET', contactUrl(contact.id)));
    expect(read.surname).toBe('Byron');
    expect(read.emails.map((e) => e.paused)).toEqual([false, true]);
    expect(read.lists).toEqual([{ id: membershipId, contact: contact.id, list: 'doc-news', digest: true }]);

    expect((await server.request('DELETE', `/api/2/membership/${membershipId}/`)).status).toBe(200);
    expect((await server.request('DELETE', `/api/2/emails/${emailId}/`)).status).toBe(200);
    const after = readContact(await server.request('GET', contactUrl(contact.id)));
    expect(after.lists).toEqual([]);
    expect(after.emails).toHaveLength(1);
    await expectCurrent();
  });

  it('nulls it when a change is made behind the server, and the answer shows the change', async () => {
    const contact = await newContact();
    const db = server.database.db;
    await db.updateTable('emails').set({ digest: 1 }).where('contact_id', '=', contact.id).execute();
    expect(await documentOf(contact.id)).toBeNull();
    expect(readContact(await server.request('GET', contactUrl(contact.id))).emails[0]?.digest).toBe(true);

    await renderMissingDocumentsWithin(db, DOCUMENT_BATCH);
    expect(await documentOf(contact.id)).not.toBeNull();
    await db.updateTable('contacts').set({ notes: 'changed in SQL' }).where('id', '=', contact.id).execute();
    expect(await documentOf(contact.id)).toBeNull();
    expect(readContact(await server.request('GET', contactUrl(contact.id))).notes).toBe('changed in SQL');
    await expectCurrent();
  });

  /** Every document brought to its account's version, as the background renderer does. */
  async function renderAll(): Promise<void> {
    while ((await renderMissingDocumentsWithin(server.database.db, DOCUMENT_BATCH)) > 0);
  }

  it('answers a list rename, a new custom field and a ccid change at once, then from documents again', async () => {
    // Whether the background renderer has run since or not, every answer shows the change.
    await addList(server, 'doc-old-name');
    const member = await newContact(['doc-old-name']);
    const other = await newContact();
    const renamed = await server.request('PUT', '/api/2/lists/doc-old-name/', { form: { name: 'doc-new-name' } });
    expect(renamed.status).toBe(200);
    expect(readContact(await server.request('GET', contactUrl(member.id))).lists[0]?.list).toBe('doc-new-name');
    const page = await server.request('GET', '/api/2/contacts/', { query: { id: member.id } });
    expect((page.json as { data: Contact[] }).data[0]?.lists[0]?.list).toBe('doc-new-name');
    await renderAll();
    const served = await server.request('GET', contactUrl(member.id));
    expect(served.body).toBe(await documentOf(member.id));
    expect(readContact(served).lists[0]?.list).toBe('doc-new-name');

    await addField(server, 'Doc field', 'doc_field');
    expect(readContact(await server.request('GET', contactUrl(other.id)))).toMatchObject({ doc_field: '' });
    const all = await server.request('GET', '/api/2/contacts/', { query: { limit: 1000 } });
    for (const contact of (all.json as { data: Contact[] }).data) expect(contact).toHaveProperty('doc_field', '');
    await renderAll();

    const account = await server.createAccount('doc-ccid-on');
    const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    const named = await postContact(server, { emails: [freshAddress('doc-ccid-on')], ccid: 'c-on' }, { key });
    const enabled = await server.request('PUT', `/api/2/accounts/${account.id}/`, {
      key: server.globalKey,
      form: { ccid: true },
    });
    expect(enabled.status, enabled.body).toBe(200);
    // Spec §2.1: the ccid now names the contact, in its addresses too.
    expect(readContact(await server.request('GET', contactUrl('c-on'), { key })).emails[0]?.contact).toBe('c-on');
    expect(readContact(await server.request('GET', contactUrl('c-on'), { key })).id).toBe(named.id);
    await expectCurrent();
  });

  it('never serves a document rendered before its account’s version, whatever the renderer knows', async () => {
    const account = await server.createAccount('doc-versions');
    const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    const contact = await postContact(server, { emails: [freshAddress('doc-versions')], firstname: 'Current' }, { key });
    const db = server.database.db;
    const id = Number(contact.id);
    // A document that differs from its rows, at the account's version: served, so the check can fail.
    const planted = (await documentOf(id))?.replace('"Current"', '"Planted"') ?? '';
    expect(planted).toContain('"Planted"');
    await db.updateTable('contact_documents').set({ document: planted }).where('contact_id', '=', id).execute();
    expect((await server.request('GET', contactUrl(id), { key })).body).toBe(planted);
    // The account's version moves on, and the renderer is told nothing is left behind: only the
    // read's own check stands between the planted document and the answer.
    await db
      .updateTable('document_versions')
      .set((eb) => ({ version: eb('version', '+', 1), rendered: eb('version', '+', 1) }))
      .where('account_id', '=', account.id)
      .execute();
    expect(readContact(await server.request('GET', contactUrl(id), { key })).firstname).toBe('Current');
    const page = await server.request('GET', '/api/2/contacts/', { key });
    expect((page.json as { data: Contact[] }).data.map((c) => c.firstname)).toEqual(['Current']);
    const searched = await server.request('GET', '/api/2/contacts/', { key, query: { search: 'current' } });
    expect((searched.json as { data: Contact[] }).data.map((c) => c.firstname)).toEqual(['Current']);
    expect(await documentOf(id)).toBe(planted);
    await expectCurrent();
  });

  it('nulls the documents of a deleted list’s members', async () => {
    await addList(server, 'doc-leaving');
    const member = await newContact(['doc-leaving']);
    await renderAll();
    expect((await server.request('DELETE', '/api/2/lists/doc-leaving/')).status).toBe(200);
    expect(await documentOf(member.id)).toBeNull();
    expect(readContact(await server.request('GET', contactUrl(member.id))).lists).toEqual([]);
    await expectCurrent();
  });

  it('renders with the account as the write reads it, not as a cache saw it before a ccid change', async () => {
    const account = await server.createAccount('doc-ccid');
    const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    const contact = await postContact(server, { emails: [freshAddress('doc-ccid')], ccid: 'c-1' }, { key });
    // Behind the server's cached account row: ccid is on, and the contact is named by it.
    await server.database.db.updateTable('accounts').set({ ccid: 1 }).where('id', '=', account.id).execute();
    expect((await server.request('PUT', contactUrl(Number(contact.id)), { key, form: { notes: 'x' } })).status).toBe(200);
    server.forgetCachedAuth();
    const read = readContact(await server.request('GET', contactUrl('c-1'), { key }));
    expect(read.emails[0]?.contact).toBe('c-1');
    await expectCurrent();
  });

  it('serves a page from stored documents, rendering the ones not stored yet', async () => {
    const stored = await postContact(server, { emails: [freshAddress('doc-page')], surname: 'Pagewright' });
    const unrendered = await postContact(server, { emails: [freshAddress('doc-page')], surname: 'Pagewright' });
    await server.database.db.updateTable('contact_documents').set({ document: null }).where('contact_id', '=', Number(unrendered.id)).execute();
    const response = await server.request('GET', '/api/2/contacts/', { query: { search: 'pagewright' } });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ count: 2, page: 1, data: [stored, unrendered] });
    // Spec §8 rule 1: the page costs its two objects.
    const before = Number(response.headers['x-ratelimit-remaining']);
    const again = await server.request('GET', '/api/2/contacts/', { query: { search: 'pagewright' } });
    expect(Number(again.headers['x-ratelimit-remaining'])).toBe(before - 2);
  });

  it('renders missing documents in the background within seconds', async () => {
    const contact = await newContact();
    await server.database.db.updateTable('contact_documents').set({ document: null }).where('contact_id', '=', contact.id).execute();
    const deadline = Date.now() + 10_000;
    while ((await documentOf(contact.id)) === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await documentOf(contact.id)).not.toBeNull();
    await expectCurrent();
  });

  it('answers a key limited to some fields or lists from the rows, never from the document', async () => {
    await addList(server, 'doc-visible');
    await addList(server, 'doc-hidden');
    await addField(server, 'Doc secret', 'doc_secret');
    const contact = await postContact(server, {
      emails: [freshAddress('doc-limited')],
      lists: ['doc-visible', 'doc-hidden'],
      doc_secret: 'classified',
    });
    expect(await documentOf(Number(contact.id))).toContain('classified');
    const key = await limitedKey(server, {
      permissions: ['superadmin', 'limit_lists', 'limit_metadata'],
      limitLists: ['doc-visible'],
      limitMetadata: ['doc_field'],
    });
    const read = await server.request('GET', contactUrl(contact.id), { key });
    expect(read.status).toBe(200);
    expect(read.body).not.toContain('classified');
    expect(readContact(read).lists.map((m) => m.list)).toEqual(['doc-visible']);
  });

  it('would see a stored document that lags behind its rows (the check is not blind)', async () => {
    const contact = await newContact();
    const db = server.database.db;
    await db.updateTable('contact_documents').set({ document: '{"id":0}' }).where('contact_id', '=', contact.id).execute();
    const problems = await staleContactDocuments(db);
    expect(problems).toEqual([expect.stringContaining(`contact ${contact.id}: stored {"id":0}`)]);
    await db.updateTable('contact_documents').set({ document: null }).where('contact_id', '=', contact.id).execute();
    await expectCurrent();
  });
});
