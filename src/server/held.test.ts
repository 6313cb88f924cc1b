import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HeldBulkOutcome,
  HeldMessageDetail,
  HeldOutcome,
  HeldPage,
  HeldSource,
} from '../api/schemas/held.ts';
import { Administrator, RetrievedKey } from '../api/schemas/administrator.ts';
import { MessagePage } from '../api/schemas/message.ts';
import { insertHeldMessage } from './test/held-fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

/** The held queue extension (issue 18 item 3): list, read, approve, reject, discard, bulk. */
describeEachDialect('held queue API', (dialect) => {
  let server: TestServer;
  const hold = (list: string, subject: string, rule?: 'hold-all' | 'taboo-body') =>
    insertHeldMessage(server.database.db, {
      accountId: server.account.id,
      list,
      tag: 'acme',
      subject,
      rule,
      now: server.clock.now(),
    });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const name of ['alpha', 'beta']) {
      const created = await server.request('POST', '/api/2/lists/', { form: { name } });
      expect(created.status, created.body).toBe(200);
    }
  });
  afterAll(() => server.close());

  it('lists held messages oldest first with their reasons, counts per list, and filters by list', async () => {
    const a = await hold('alpha', 'First on alpha');
    await hold('alpha', 'Second on alpha', 'taboo-body');
    await hold('beta', 'Only on beta');
    const all = HeldPage.parse((await server.request('GET', '/api/2/held/')).json);
    expect(all.count).toBeGreaterThanOrEqual(3);
    expect(all.data[0]).toMatchObject({
      id: a,
      list: 'alpha',
      subject: 'First on alpha',
      rule: 'hold-all',
    });
    expect(all.data[0]?.reasons).toEqual([
      expect.objectContaining({ rule: 'hold-all', setting: 'moderate' }),
    ]);
    expect(all.lists).toEqual(
      expect.arrayContaining([expect.objectContaining({ list: 'beta', count: 1 })]),
    );
    const beta = HeldPage.parse(
      (await server.request('GET', '/api/2/held/', { query: { list: 'beta' } })).json,
    );
    expect(beta.data.map((held) => held.subject)).toEqual(['Only on beta']);
    const taboo = all.data.find((held) => held.subject === 'Second on alpha');
    expect(taboo).toMatchObject({ rule: 'taboo-body', setting: 'taboo_body[0]' });
  });

  it('answers one held message with its content and headers, 404 for an unknown id', async () => {
    const id = await hold('alpha', 'Readable');
    const detail = HeldMessageDetail.parse(
      (await server.request('GET', `/api/2/held/${id}/`)).json,
    );
    expect(detail.content_plain).toContain('held message');
    expect(detail.content_html).toContain('<p>');
    expect(detail.headers).toEqual(
      expect.arrayContaining([{ name: 'Subject', value: 'Readable' }]),
    );
    expect((await server.request('GET', '/api/2/held/999999/')).status).toBe(404);
    expect((await server.request('GET', '/api/2/held/abc/')).status).toBe(404);
  });

  it('answers the source as it arrived on demand, 404 for an unknown id', async () => {
    const id = await hold('alpha', 'Every byte');
    const answer = await server.request('GET', `/api/2/held/${id}/source/`);
    expect(answer.status, answer.body).toBe(200);
    const { source } = HeldSource.parse(answer.json);
    expect(source).toMatch(/^Subject: Every byte\r?$/m);
    expect(source).toContain('held message');
    expect((await server.request('GET', '/api/2/held/999999/source/')).status).toBe(404);
  });

  it('approve archives the message and takes it out of the queue; a second approve is 404', async () => {
    const id = await hold('alpha', 'Approve me');
    const approved = await server.request('POST', `/api/2/held/${id}/approve/`);
    expect(approved.status, approved.body).toBe(200);
    const outcome = HeldOutcome.parse(approved.json);
    expect(outcome).toMatchObject({ id, action: 'approve' });
    const archive = MessagePage.parse(
      (await server.request('GET', '/api/2/messages/', { query: { limit: 100 } })).json,
    );
    expect(archive.data.find((m) => m.id === outcome.message)).toMatchObject({
      subject: 'Approve me',
      list: 'alpha',
    });
    expect((await server.request('POST', `/api/2/held/${id}/approve/`)).status).toBe(404);
  });

  it('reject and discard take the message out without archiving it', async () => {
    const rejected = await hold('alpha', 'Reject me');
    const discarded = await hold('alpha', 'Discard me');
    const r = await server.request('POST', `/api/2/held/${rejected}/reject/`, {
      form: { reason: 'Off topic' },
    });
    expect(r.status, r.body).toBe(200);
    expect(HeldOutcome.parse(r.json)).toEqual({ id: rejected, action: 'reject', message: null });
    const d = await server.request('POST', `/api/2/held/${discarded}/discard/`);
    expect(HeldOutcome.parse(d.json)).toEqual({ id: discarded, action: 'discard', message: null });
    const archive = MessagePage.parse(
      (await server.request('GET', '/api/2/messages/', { query: { limit: 100 } })).json,
    );
    expect(archive.data.map((m) => m.subject)).not.toContain('Reject me');
    expect(archive.data.map((m) => m.subject)).not.toContain('Discard me');
    expect((await server.request('GET', `/api/2/held/${rejected}/`)).status).toBe(404);
  });

  it('bulk acts on every id or on none', async () => {
    const one = await hold('beta', 'Bulk one');
    const two = await hold('beta', 'Bulk two');
    const refused = await server.request('POST', '/api/2/held/bulk/', {
      form: { action: 'discard', ids: [one, 999999] },
    });
    expect(refused.status, refused.body).toBe(400);
    expect((await server.request('GET', `/api/2/held/${one}/`)).status).toBe(200);
    const done = await server.request('POST', '/api/2/held/bulk/', {
      form: { action: 'approve', ids: [one, two] },
    });
    expect(done.status, done.body).toBe(200);
    const { results } = HeldBulkOutcome.parse(done.json);
    expect(results.map((result) => result.id)).toEqual([one, two]);
    expect(results.every((result) => result.message !== null)).toBe(true);
  });

  describe('who may moderate', () => {
    it('needs the approval permission', async () => {
      const id = await hold('alpha', 'Permission check');
      const reader = await server.createKey({
        accountId: server.account.id,
        permissions: ['messages'],
      });
      expect((await server.request('GET', '/api/2/held/', { key: reader })).status).toBe(403);
      expect(
        (await server.request('POST', `/api/2/held/${id}/approve/`, { key: reader })).status,
      ).toBe(403);
      const moderator = await server.createKey({
        accountId: server.account.id,
        permissions: ['approval'],
      });
      expect((await server.request('GET', `/api/2/held/${id}/`, { key: moderator })).status).toBe(
        200,
      );
    });

    it('confines a limit_lists moderator to its lists', async () => {
      const betaOnly = await hold('beta', 'Beta only');
      const alphaHeld = await hold('alpha', 'Not for beta moderators');
      const admin = await server.request('POST', '/api/2/users/', {
        form: {
          username: 'beta-mod@acme.example',
          permissions: ['approval', 'limit_lists'],
          limit_lists: ['beta'],
        },
      });
      expect(admin.status, admin.body).toBe(200);
      const { id: userId } = Administrator.parse(admin.json);
      const { key } = RetrievedKey.parse(
        (
          await server.request('PUT', `/api/2/users/${String(userId)}/`, {
            form: { get_key: true },
          })
        ).json,
      );
      const page = HeldPage.parse((await server.request('GET', '/api/2/held/', { key })).json);
      expect(page.data.map((held) => held.list)).not.toContain('alpha');
      expect(page.lists.map((entry) => entry.list)).toEqual(['beta']);
      expect(page.data.map((held) => held.id)).toContain(betaOnly);
      expect(
        (await server.request('POST', `/api/2/held/${alphaHeld}/discard/`, { key })).status,
      ).toBe(404);
      expect(
        (await server.request('GET', `/api/2/held/${alphaHeld}/source/`, { key })).status,
      ).toBe(404);
      expect(
        (
          await server.request('POST', '/api/2/held/bulk/', {
            key,
            form: { action: 'discard', ids: [alphaHeld] },
          })
        ).status,
      ).toBe(400);
    });
  });
});
