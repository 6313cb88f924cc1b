import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from './lib/clock.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { linkIn, mailsTo, publicClient } from './test/public-client.ts';
import { testClock } from './test/test-clock.ts';

const DOMAIN = 'lists.acme.example';

describeEachDialect('members join and leave on their own (issue 25)', (dialect) => {
  const clock = manualClock(testClock().now());
  let server: TestServer;
  let people: ReturnType<typeof publicClient>;

  const createList = async (name: string, settings: Record<string, unknown> = {}) => {
    const created = await server.request('POST', '/api/2/lists/', { form: { name, ...settings } });
    expect(created.status, created.body).toBe(200);
    return `${name}@${DOMAIN}`;
  };
  const isMember = async (list: string, address: string) => {
    const row = await server.database.db
      .selectFrom('memberships')
      .innerJoin('lists', 'lists.id', 'memberships.list_id')
      .innerJoin('emails', 'emails.contact_id', 'memberships.contact_id')
      .select('memberships.id')
      .where('lists.name', '=', list)
      .where('emails.email_key', '=', address.toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, { clock });
    await server.database.db
      .updateTable('accounts')
      .set({ domain: DOMAIN })
      .where('id', '=', server.account.id)
      .execute();
    people = publicClient(server, clock);
  });
  afterAll(() => server.close());

  describe('the list page', () => {
    it('shows the list with its forms, with the page headers and no cookie', async () => {
      const address = await createList('garden', { description: 'Growing things together' });
      const page = await people.get(`/l/${address}/`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('Growing things together');
      expect(page.body).toContain('action="join"');
      expect(page.body).toContain('action="leave"');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.body).not.toMatch(/<script/i);
    });

    it('answers 404 for an unknown list, a list of another domain, and a list with nothing public', async () => {
      await createList('private', { subscriptions: 'closed', unsubscriptions: 'closed', archive_enabled: 0 });
      for (const url of [
        `/l/nosuch@${DOMAIN}/`,
        '/l/garden@other.example/',
        `/l/private@${DOMAIN}/`,
        '/l/not-an-address/',
      ]) {
        const page = await people.get(url);
        expect(page.status, url).toBe(404);
        expect(page.headers['content-type'], url).toMatch(/^text\/html/);
      }
    });
  });

  describe('joining an open list', () => {
    it('mails a confirmation; its link shows a button, and only the POST joins, once', async () => {
      const list = await createList('open-list', { subscriptions: 'open' });
      const answer = await people.fill(list, 'join', 'Newcomer@Example.org');
      expect(answer.status, answer.body).toBe(200);
      expect(answer.body).toContain('We have mailed that address');
      expect(await isMember('open-list', 'newcomer@example.org')).toBe(false);
      const [mail] = await mailsTo(server, 'Newcomer@Example.org');
      expect(mail).toMatchObject({ kind: 'confirm', from_address: `open-list-request@${DOMAIN}` });
      expect(mail?.reply_to).toMatch(new RegExp(`^open-list-confirm\\+[A-Za-z0-9_-]{43}@${DOMAIN}$`));
      const link = linkIn(mail?.body ?? '', 'confirm');
      const shown = await people.get(link);
      expect(shown.status).toBe(200);
      expect(shown.body).toContain('Join the list');
      expect(await isMember('open-list', 'newcomer@example.org')).toBe(false);
      const joined = await people.post('POST', link);
      expect(joined.status, joined.body).toBe(200);
      expect(joined.body).toContain('is now a member');
      expect(await isMember('open-list', 'newcomer@example.org')).toBe(true);
      const again = await people.post('POST', link);
      expect(again.status).toBe(404);
    });
  });
});
