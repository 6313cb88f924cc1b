import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from './lib/clock.ts';
import { OutboxWorker } from './mail/outbox.ts';
import { SINK_FOLDER, sinkTransport } from './mail/transport.ts';
import { RequestBulkOutcome, RequestOutcome, RequestPage } from '../api/schemas/request.ts';
import { purgeMembers } from './members/housekeeping.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { linkIn, mailsTo, publicClient } from './test/public-client.ts';
import { insertWaitingRequest } from './test/request-fixtures.ts';
import { testClock } from './test/test-clock.ts';

const DOMAIN = 'lists.acme.example';
const DAY = 86_400_000;

/**
 * Issue 25: members join and leave on their own, on every path (the list's page, RFC 8058
 * one-click, the member's page), by the list's policy (spec §2.4 subscriptions/unsubscriptions,
 * else the account's §2.7), with SECURITY.md 41–46 each held by a test here.
 */
describeEachDialect('members join and leave on their own (issue 25)', (dialect) => {
  const clock = manualClock(testClock().now());
  let server: TestServer;
  let people: ReturnType<typeof publicClient>;
  let sinkDir: string;
  let worker: OutboxWorker;
  let client = 0;

  /** A new client address per test, so that one test's requests do not count against another's. */
  const nextClient = () => `198.51.100.${(client += 1)}`;
  const createList = async (name: string, settings: Record<string, unknown> = {}) => {
    const created = await server.request('POST', '/api/2/lists/', { form: { name, ...settings } });
    expect(created.status, created.body).toBe(200);
    return `${name}@${DOMAIN}`;
  };
  const addMember = async (address: string, lists: string[]) => {
    const created = await server.request('POST', '/api/2/contacts/', {
      form: { emails: [address], lists },
    });
    expect(created.status, created.body).toBe(200);
  };
  const membershipsOf = async (address: string) => {
    const rows = await server.database.db
      .selectFrom('memberships')
      .innerJoin('lists', 'lists.id', 'memberships.list_id')
      .innerJoin('emails', 'emails.contact_id', 'memberships.contact_id')
      .select(['lists.name', 'memberships.digest'])
      .where('emails.email_key', '=', address.toLowerCase())
      .orderBy('lists.name')
      .execute();
    return rows;
  };
  const listsOf = async (address: string) => (await membershipsOf(address)).map((row) => row.name);
  /** Sends a post to the list through the API and delivers it into the sink: each copy, parsed. */
  const post = async (list: string, subject: string) => {
    const sent = await server.request('POST', '/api/2/messages/', {
      form: { list, subject, content_plain: `${subject}, the body.` },
    });
    expect(sent.status, sent.body).toBe(200);
    await worker.drainAll();
    const sink = path.join(sinkDir, SINK_FOLDER);
    const copies = await Promise.all(
      fs.readdirSync(sink).map(async (name) => {
        const raw = fs.readFileSync(path.join(sink, name));
        fs.rmSync(path.join(sink, name));
        const to = /^X-Listkeeper-Envelope-To: (.*)\r$/m.exec(raw.toString())?.[1] ?? '';
        return { to, raw, parsed: await simpleParser(raw) };
      }),
    );
    return copies.filter((copy) => copy.parsed.subject?.includes(subject));
  };
  const oneClickUrl = (raw: Buffer) => {
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(raw.toString())?.[1] ?? '';
    return new URL(header);
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, { clock });
    await server.database.db
      .updateTable('accounts')
      .set({ domain: DOMAIN })
      .where('id', '=', server.account.id)
      .execute();
    people = publicClient(server, clock);
    sinkDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-members-'));
    worker = new OutboxWorker({
      db: server.database.db,
      transport: sinkTransport(sinkDir),
      batchSize: 50,
      now: () => clock.now().getTime(),
      publicOrigin: () => 'https://lists.acme.example',
    });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(sinkDir, { recursive: true, force: true });
  });

  describe('the list page', () => {
    it('shows the list with its forms, with the page headers and no cookie', async () => {
      const address = await createList('garden', { description: 'Growing things together' });
      const page = await people.get(`/l/${address}/`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('Growing things together');
      expect(page.body).toContain('action="join"');
      expect(page.body).toContain('action="leave"');
      expect(page.body).toContain('<a href="archive/">Read the archive</a>');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['x-frame-options'] ?? page.headers['content-security-policy']).toMatch(
        /frame-ancestors 'none'|DENY/,
      );
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.body).not.toMatch(/<script/i);
      expect(page.body).toContain('name="viewport" content="width=device-width, initial-scale=1"');
    });

    it('answers 404 for an unknown list, a list of another domain, and a list with nothing public', async () => {
      await createList('private', {
        subscriptions: 'closed',
        unsubscriptions: 'closed',
        archive_enabled: 0,
      });
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

    it('accepts only its own form fields, as a browser sends them (SECURITY.md 46)', async () => {
      const list = await createList('strict-form');
      const page = await people.get(`/l/${list}/`);
      const started = /name="started" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      clock.advance(5_000);
      const extra = await people.post('POST', `/l/${list}/join`, {
        form: { email: 'x@example.org', started, website: '', lists: 'other' },
        remoteAddress: nextClient(),
      });
      expect(extra.status).toBe(400);
      expect(extra.body).toContain('This form has no field lists');
      const json = await people.post('POST', `/l/${list}/join`, {
        body: JSON.stringify({ email: 'x@example.org', started }),
        contentType: 'application/json',
        remoteAddress: nextClient(),
      });
      expect(json.status).toBe(415);
      expect(await mailsTo(server, 'x@example.org')).toEqual([]);
    });
  });

  describe('joining', () => {
    it('open: mails a confirmation; its link shows a button, and only the POST joins, once (SECURITY.md 41, 42)', async () => {
      const list = await createList('open-list', { subscriptions: 'open' });
      const answer = await people.fill(list, 'join', 'Newcomer@Example.org', { remoteAddress: nextClient() });
      expect(answer.status, answer.body).toBe(200);
      expect(answer.body).toContain('We have mailed that address');
      expect(await listsOf('newcomer@example.org')).toEqual([]);
      const [mail] = await mailsTo(server, 'Newcomer@Example.org');
      expect(mail).toMatchObject({ kind: 'confirm', from_address: `open-list-request@${DOMAIN}` });
      expect(mail?.reply_to).toMatch(
        new RegExp(`^open-list-confirm\\+[A-Za-z0-9_-]{43}@${DOMAIN}$`),
      );
      const link = linkIn(mail?.body ?? '', 'confirm');
      // The token is stored only as its hash.
      const token = link.split('/').pop() ?? '';
      const stored = await server.database.db.selectFrom('mail_tokens').select('token_hash').execute();
      expect(stored.map((row) => row.token_hash)).not.toContain(token);
      const shown = await people.get(link);
      expect(shown.status).toBe(200);
      expect(shown.body).toContain('Join the list');
      expect(shown.headers['cache-control']).toBe('no-store');
      expect(await listsOf('newcomer@example.org')).toEqual([]);
      const joined = await people.post('POST', link);
      expect(joined.status, joined.body).toBe(200);
      expect(joined.body).toContain('is now a member');
      expect(await listsOf('newcomer@example.org')).toEqual(['open-list']);
      const email = await server.database.db
        .selectFrom('emails')
        .select(['email', 'confirmed'])
        .where('email_key', '=', 'newcomer@example.org')
        .executeTakeFirstOrThrow();
      // Spec §2.2 `confirmed`, and the address as the person typed it.
      expect(email).toEqual({ email: 'Newcomer@Example.org', confirmed: 1 });
      expect((await people.post('POST', link)).status).toBe(404);
    });

    it('a forged, altered or expired confirmation changes nothing and gets a 404 (SECURITY.md 42)', async () => {
      const list = await createList('forged', { subscriptions: 'open' });
      await people.fill(list, 'join', 'forge@example.org', { remoteAddress: nextClient() });
      const link = linkIn((await mailsTo(server, 'forge@example.org'))[0]?.body ?? '', 'confirm');
      const altered = `${link.slice(0, -1)}${link.endsWith('A') ? 'B' : 'A'}`;
      for (const url of [altered, `/l/${list}/confirm/x`, link.replace('forged@', 'garden@')]) {
        expect((await people.post('POST', url)).status, url).toBe(404);
        expect((await people.get(url)).status, url).toBe(404);
      }
      clock.advance(3 * DAY + 1);
      expect((await people.get(link)).status).toBe(404);
      expect((await people.post('POST', link)).status).toBe(404);
      expect(await listsOf('forge@example.org')).toEqual([]);
    });

    it('open+confirm: after the address confirms, the request waits for a moderator, who hears of it', async () => {
      const moderator = await server.request('POST', '/api/2/users/', {
        // No welcome mail (issue 27 item 4): its first mail is the notice.
        form: { username: 'moderator@acme.example', notifications: ['subscription'], permissions: ['membership'], welcome_email: false },
      });
      expect(moderator.status, moderator.body).toBe(200);
      const list = await createList('vetted', { subscriptions: 'open+confirm' });
      await people.fill(list, 'join', 'hopeful@example.org', { remoteAddress: nextClient() });
      const link = linkIn((await mailsTo(server, 'hopeful@example.org'))[0]?.body ?? '', 'confirm');
      const waiting = await people.post('POST', link);
      expect(waiting.status).toBe(200);
      expect(waiting.body).toContain('waits for a moderator');
      expect(await listsOf('hopeful@example.org')).toEqual([]);
      const request = await server.database.db
        .selectFrom('member_requests')
        .select(['kind', 'state', 'address'])
        .where('address_key', '=', 'hopeful@example.org')
        .executeTakeFirstOrThrow();
      expect(request).toEqual({ kind: 'join', state: 'moderate', address: 'hopeful@example.org' });
      const [notice] = await mailsTo(server, 'moderator@acme.example');
      expect(notice).toMatchObject({ kind: 'subscription', subject: `hopeful@example.org asks to join ${list}` });
    });

    it('closed: the form says so and nothing is sent', async () => {
      const list = await createList('members-only', { subscriptions: 'closed' });
      const page = await people.get(`/l/${list}/`);
      expect(page.body).toContain('does not take new members');
      expect(page.body).not.toContain('action="join"');
      const page2 = await people.get(`/l/${list}/`);
      const started = /name="started" value="([^"]+)"/.exec(page2.body)?.[1] ?? '';
      clock.advance(5_000);
      const refused = await people.post('POST', `/l/${list}/join`, {
        form: { email: 'outsider@example.org', started, website: '' },
        remoteAddress: nextClient(),
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('does not take new members');
      expect(await mailsTo(server, 'outsider@example.org')).toEqual([]);
    });

    it('refuses an address that matches none of restrict_contact_subscription, and says so on the field', async () => {
      await server.database.db
        .updateTable('accounts')
        .set({ settings: JSON.stringify({ restrict_contact_subscription: ['@acme\\.example$'] }) })
        .where('id', '=', server.account.id)
        .execute();
      try {
        const list = await createList('staff');
        const refused = await people.fill(list, 'join', 'stranger@elsewhere.example', { remoteAddress: nextClient() });
        expect(refused.status).toBe(400);
        expect(refused.body).toContain('does not take members from that address');
        expect(refused.body).toContain('aria-invalid="true"');
        expect(await mailsTo(server, 'stranger@elsewhere.example')).toEqual([]);
        const allowed = await people.fill(list, 'join', 'colleague@acme.example', { remoteAddress: nextClient() });
        expect(allowed.status).toBe(200);
        expect(await mailsTo(server, 'colleague@acme.example')).toHaveLength(1);
      } finally {
        await server.database.db
          .updateTable('accounts')
          .set({ settings: '{}' })
          .where('id', '=', server.account.id)
          .execute();
      }
    });

    it('an address already a member gets a mail saying so and no second membership; the page says the same to anyone (SECURITY.md 41)', async () => {
      const list = await createList('book-club');
      await addMember('reader@example.org', ['book-club']);
      const forMember = await people.fill(list, 'join', 'reader@example.org', { remoteAddress: nextClient() });
      const forStranger = await people.fill(list, 'join', 'nobody@example.org', { remoteAddress: nextClient() });
      const notice = (body: string) => /<p class="notice"[^>]*>(.*?)<\/p>/.exec(body)?.[1];
      expect(notice(forMember.body)).toBe(notice(forStranger.body));
      expect(forMember.status).toBe(forStranger.status);
      const [mail] = await mailsTo(server, 'reader@example.org');
      expect(mail).toMatchObject({ kind: 'member', subject: `You are a member of ${list}` });
      expect(mail?.body).toContain('/member/');
      expect(await listsOf('reader@example.org')).toEqual(['book-club']);
    });

    it('welcomes a member who joined by confirming when the account says so (spec §2.7 send_welcome_message_confirmation)', async () => {
      await server.database.db
        .updateTable('accounts')
        .set({ settings: JSON.stringify({ send_welcome_message_confirmation: true }) })
        .where('id', '=', server.account.id)
        .execute();
      try {
        const list = await createList('welcoming', {
          welcome_message: 'Glad you are here.',
          welcome_message_subject: 'Hello from welcoming',
        });
        await people.fill(list, 'join', 'guest@example.org', { remoteAddress: nextClient() });
        const link = linkIn((await mailsTo(server, 'guest@example.org'))[0]?.body ?? '', 'confirm');
        const joined = await people.post('POST', link);
        expect(joined.body).toContain('Glad you are here.');
        const mails = await mailsTo(server, 'guest@example.org');
        expect(mails.map((mail) => [mail.kind, mail.subject])).toEqual([
          ['confirm', `Confirm joining ${list}`],
          ['welcome', 'Hello from welcoming'],
        ]);
      } finally {
        await server.database.db
          .updateTable('accounts')
          .set({ settings: '{}' })
          .where('id', '=', server.account.id)
          .execute();
      }
    });
  });

  describe('leaving', () => {
    it('by RFC 8058 one-click: Gmail’s exact POST leaves at once with a 200 and no redirect, and the next post skips them', async () => {
      await createList('weekly');
      await addMember('keen@example.org', ['weekly']);
      await addMember('leaver@example.org', ['weekly']);
      const copies = await post('weekly', 'First issue');
      expect(copies.map((copy) => copy.to).sort()).toEqual(['keen@example.org', 'leaver@example.org']);
      const copy = copies.find((c) => c.to === 'leaver@example.org');
      const raw = copy?.raw.toString() ?? '';
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
      expect(raw).toMatch(new RegExp(`<mailto:weekly-leave@${DOMAIN.replace(/\./g, '\\.')}\\?subject=unsubscribe>`));
      expect(copy?.parsed.text).toContain('/member/');
      const url = oneClickUrl(copy?.raw ?? Buffer.alloc(0));
      expect(url.origin).toBe('https://lists.acme.example');
      // Each member's link is their own.
      const other = oneClickUrl(copies.find((c) => c.to === 'keen@example.org')?.raw ?? Buffer.alloc(0));
      expect(other.pathname).not.toBe(url.pathname);
      // A GET shows a button and changes nothing (mail scanners follow links).
      const shown = await people.get(url.pathname);
      expect(shown.status).toBe(200);
      expect(shown.body).toContain('leaver@example.org');
      expect(await listsOf('leaver@example.org')).toEqual(['weekly']);
      // Gmail: POST, no cookie, no authorization, this body and type.
      const left = await people.post('POST', url.pathname, {
        body: 'List-Unsubscribe=One-Click',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(left.status, left.body).toBe(200);
      expect(left.headers.location).toBeUndefined();
      expect(await listsOf('leaver@example.org')).toEqual([]);
      const next = await post('weekly', 'Second issue');
      expect(next.map((c) => c.to)).toEqual(['keen@example.org']);
      // Pressed again: nothing more to do, nothing broken.
      const again = await people.post('POST', url.pathname, {
        body: 'List-Unsubscribe=One-Click',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(again.status).toBe(200);
    });

    it('by one-click as multipart/form-data too, and only with its one field', async () => {
      await createList('multi');
      await addMember('multipart@example.org', ['multi']);
      const [copy] = await post('multi', 'Multipart issue');
      const url = oneClickUrl(copy?.raw ?? Buffer.alloc(0));
      const wrong = await people.post('POST', url.pathname, {
        body: 'List-Unsubscribe=Maybe',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(wrong.status).toBe(400);
      expect(await listsOf('multipart@example.org')).toEqual(['multi']);
      const boundary = 'lkboundary';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
      const left = await people.post('POST', url.pathname, {
        body,
        contentType: `multipart/form-data; boundary=${boundary}`,
      });
      expect(left.status, left.body).toBe(200);
      expect(await listsOf('multipart@example.org')).toEqual([]);
    });

    it('leaves only the list the link names, and a forged or expired link changes nothing (SECURITY.md 42, 45)', async () => {
      await createList('alpha');
      await createList('beta');
      await addMember('both@example.org', ['alpha', 'beta']);
      const [copy] = await post('alpha', 'Alpha news');
      const url = oneClickUrl(copy?.raw ?? Buffer.alloc(0));
      const token = url.pathname.split('/').pop() ?? '';
      const oneClick = (pathname: string) =>
        people.post('POST', pathname, {
          body: 'List-Unsubscribe=One-Click',
          contentType: 'application/x-www-form-urlencoded',
        });
      // The same token on another list's URL, or altered by one character.
      expect((await oneClick(`/l/beta@${DOMAIN}/unsubscribe/${token}`)).status).toBe(404);
      const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
      expect((await oneClick(`/l/alpha@${DOMAIN}/unsubscribe/${flipped}`)).status).toBe(404);
      expect(await listsOf('both@example.org')).toEqual(['alpha', 'beta']);
      // Expired: 90 days later the GET says so and offers the list's page instead.
      const later = manualClock(new Date(clock.now().getTime() + 91 * DAY));
      const saved = clock.now();
      clock.set(later.now());
      try {
        expect((await people.get(url.pathname)).status).toBe(404);
        expect((await oneClick(url.pathname)).status).toBe(404);
      } finally {
        clock.set(saved);
      }
      expect((await oneClick(url.pathname)).status).toBe(200);
      expect(await listsOf('both@example.org')).toEqual(['beta']);
    });

    it('a link stops working when its address is changed to another (the MAC names the address)', async () => {
      await createList('renamed');
      await addMember('before@example.org', ['renamed']);
      const [copy] = await post('renamed', 'Before the change');
      const url = oneClickUrl(copy?.raw ?? Buffer.alloc(0));
      const email = await server.database.db
        .selectFrom('emails')
        .select('id')
        .where('email_key', '=', 'before@example.org')
        .executeTakeFirstOrThrow();
      const changed = await server.request('PUT', `/api/2/emails/${email.id}/`, {
        form: { email: 'after@example.org' },
      });
      expect(changed.status, changed.body).toBe(200);
      expect((await people.get(url.pathname)).status).toBe(404);
      expect(await listsOf('after@example.org')).toEqual(['renamed']);
    });

    it('open+confirm: one-click hands the leave to a moderator; closed: nothing is offered and nothing changes', async () => {
      await createList('guarded', { unsubscriptions: 'open+confirm' });
      await createList('locked', { unsubscriptions: 'closed' });
      await addMember('stuck@example.org', ['guarded', 'locked']);
      const [guarded] = await post('guarded', 'Guarded news');
      const url = oneClickUrl(guarded?.raw ?? Buffer.alloc(0));
      const waiting = await people.post('POST', url.pathname, {
        body: 'List-Unsubscribe=One-Click',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(waiting.status).toBe(200);
      expect(waiting.body).toContain('waits for a moderator');
      expect(await listsOf('stuck@example.org')).toEqual(['guarded', 'locked']);
      const request = await server.database.db
        .selectFrom('member_requests')
        .select(['kind', 'state', 'source'])
        .where('address_key', '=', 'stuck@example.org')
        .executeTakeFirstOrThrow();
      expect(request).toEqual({ kind: 'leave', state: 'moderate', source: 'one-click' });
      const [locked] = await post('locked', 'Locked news');
      const raw = locked?.raw.toString() ?? '';
      expect(raw).not.toMatch(/^List-Unsubscribe-Post:/m);
      expect(raw).not.toMatch(/\/unsubscribe\//);
    });

    it('by the list page’s leave form: a confirmation first; a stranger is told nothing changed', async () => {
      const list = await createList('forum');
      await addMember('done@example.org', ['forum']);
      await people.fill(list, 'leave', 'done@example.org', { remoteAddress: nextClient() });
      const [mail] = await mailsTo(server, 'done@example.org');
      expect(mail).toMatchObject({ kind: 'confirm', subject: `Confirm leaving ${list}` });
      const link = linkIn(mail?.body ?? '', 'confirm');
      expect((await people.get(link)).body).toContain('Leave the list');
      const left = await people.post('POST', link);
      expect(left.body).toContain('You have left');
      expect(await listsOf('done@example.org')).toEqual([]);
      await people.fill(list, 'leave', 'never@example.org', { remoteAddress: nextClient() });
      const [stranger] = await mailsTo(server, 'never@example.org');
      expect(stranger).toMatchObject({ subject: `You are not a member of ${list}` });
    });
  });

  describe('the member’s own page', () => {
    it('sets the digest, pauses and resumes, and leaves, by its personal link (spec §2.2 paused, §2.3 digest)', async () => {
      await createList('digestible');
      await addMember('manager@example.org', ['digestible']);
      const [copy] = await post('digestible', 'Manage me');
      const link = linkIn(copy?.parsed.text ?? '', 'member');
      const page = await people.get(link);
      expect(page.status).toBe(200);
      expect(page.body).toContain('manager@example.org');
      expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
      const act = (action: string) => people.post('POST', link, { form: { action } });
      expect((await act('digest-on')).body).toContain('one daily digest');
      expect(await membershipsOf('manager@example.org')).toEqual([{ name: 'digestible', digest: 1 }]);
      expect((await act('pause')).body).toContain('Your mail is paused');
      const paused = await server.database.db
        .selectFrom('emails')
        .select('paused')
        .where('email_key', '=', 'manager@example.org')
        .executeTakeFirstOrThrow();
      expect(paused.paused).toBe(1);
      expect((await act('resume')).body).toContain('resumed');
      expect((await act('unknown')).status).toBe(400);
      expect((await act('leave')).body).toContain('You have left');
      expect(await listsOf('manager@example.org')).toEqual([]);
    });

    it('is mailed on request to a member’s address only, never shown (SECURITY.md 41)', async () => {
      const list = await createList('self-service');
      await addMember('asker@example.org', ['self-service']);
      const forMember = await people.fill(list, 'manage', 'asker@example.org', { remoteAddress: nextClient() });
      const forStranger = await people.fill(list, 'manage', 'ghost@example.org', { remoteAddress: nextClient() });
      expect(forMember.body).not.toContain('/member/');
      const notice = (body: string) => /<p class="notice"[^>]*>(.*?)<\/p>/.exec(body)?.[1];
      expect(notice(forMember.body)).toBe(notice(forStranger.body));
      const [mail] = await mailsTo(server, 'asker@example.org');
      expect((await people.get(linkIn(mail?.body ?? '', 'member'))).status).toBe(200);
      expect(await mailsTo(server, 'ghost@example.org')).toEqual([]);
    });
  });

  describe('abuse (SECURITY.md 43)', () => {
    /**
     * A client's requests count per clock hour (members/throttle.ts): a test starts at the top of
     * one, so that its forms (a minute of the test's clock at most) never straddle two, whatever the
     * time of day. An address's mails count from its last one (the edge test below).
     */
    const toTheNextHour = () => {
      const hour = 3_600_000;
      clock.set(new Date(Math.ceil(clock.now().getTime() / hour) * hour + 1_000));
    };

    it('mails an address at most once an hour, whoever asks and for whichever list', async () => {
      const a = await createList('bomb-a');
      const b = await createList('bomb-b');
      toTheNextHour();
      for (const list of [a, b, a])
        expect((await people.fill(list, 'join', 'victim@example.org', { remoteAddress: nextClient() })).status).toBe(200);
      expect(await mailsTo(server, 'victim@example.org')).toHaveLength(1);
      clock.advance(3600_000);
      await people.fill(b, 'join', 'victim@example.org', { remoteAddress: nextClient() });
      expect(await mailsTo(server, 'victim@example.org')).toHaveLength(2);
    });

    it('counts the hour from the last mail, not by the clock: 10:59 and 11:00 do not both mail', async () => {
      const list = await createList('bomb-edge');
      const hour = 3_600_000;
      // The form is sent 5 s after the page is read (public-client.ts): at 50 s before the hour.
      clock.set(new Date(Math.ceil(clock.now().getTime() / hour) * hour + hour - 55_000));
      await people.fill(list, 'join', 'edge@example.org', { remoteAddress: nextClient() });
      expect(await mailsTo(server, 'edge@example.org')).toHaveLength(1);
      // A minute later, in the next clock hour.
      clock.advance(55_000);
      await people.fill(list, 'join', 'edge@example.org', { remoteAddress: nextClient() });
      expect(await mailsTo(server, 'edge@example.org')).toHaveLength(1);
      // An hour after the first mail.
      clock.advance(hour - 60_000);
      await people.fill(list, 'join', 'edge@example.org', { remoteAddress: nextClient() });
      expect(await mailsTo(server, 'edge@example.org')).toHaveLength(2);
    });

    it('answers 429 past a client’s requests for the hour', async () => {
      const list = await createList('flood');
      const from = nextClient();
      toTheNextHour();
      for (let i = 0; i < 20; i += 1)
        expect((await people.fill(list, 'join', `flood${i}@example.org`, { remoteAddress: from, seconds: 3 })).status).toBe(200);
      const refused = await people.fill(list, 'join', 'flood20@example.org', { remoteAddress: from, seconds: 3 });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(await mailsTo(server, 'flood20@example.org')).toEqual([]);
    });

    it('turns bots away: a filled honeypot, a form posted at once, or one signed by nobody, sends nothing', async () => {
      const list = await createList('trap');
      const page = await people.get(`/l/${list}/`);
      const started = /name="started" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      const attempts = [
        { email: 'bot1@example.org', started, website: 'http://spam.example' },
        { email: 'bot2@example.org', started, website: '' },
        { email: 'bot3@example.org', started: `${clock.now().getTime() - 60_000}.forged`, website: '' },
      ];
      for (const [index, form] of attempts.entries()) {
        if (index === 0) clock.advance(5_000);
        if (index === 1) {
          // Posted the instant the page was shown.
          const fresh = await people.get(`/l/${list}/`);
          form.started = /name="started" value="([^"]+)"/.exec(fresh.body)?.[1] ?? '';
        }
        const answer = await people.post('POST', `/l/${list}/join`, { form, remoteAddress: nextClient() });
        expect(answer.status).toBe(200);
        expect(answer.body).toContain('We have mailed that address');
        expect(await mailsTo(server, form.email)).toEqual([]);
      }
    });
  });

  describe('the moderators’ queue of requests (extension requests.*)', () => {
    const queue = async (query: Record<string, unknown> = {}, key?: string) => {
      const answer = await server.request('GET', '/api/2/requests/', { query, key });
      expect(answer.status, answer.body).toBe(200);
      return RequestPage.parse(answer.json);
    };

    it('lists what waits, oldest first, with counts per list and kind, and filters', async () => {
      await createList('queue-a');
      await createList('queue-b');
      const first = await insertWaitingRequest(server.database.db, {
        accountId: server.account.id,
        list: 'queue-a',
        address: 'first@example.org',
        now: clock.now(),
      });
      await insertWaitingRequest(server.database.db, {
        accountId: server.account.id,
        list: 'queue-a',
        address: 'second@example.org',
        kind: 'leave',
        now: clock.now(),
      });
      await insertWaitingRequest(server.database.db, {
        accountId: server.account.id,
        list: 'queue-b',
        address: 'third@example.org',
        now: clock.now(),
      });
      const all = await queue({ list: 'queue-a' });
      expect(all.data.map((r) => [r.address, r.kind, r.list])).toEqual([
        ['first@example.org', 'join', 'queue-a'],
        ['second@example.org', 'leave', 'queue-a'],
      ]);
      expect(all.data[0]?.id).toBe(first);
      expect(all.lists).toEqual(
        expect.arrayContaining([
          { list: 'queue-a', join: 1, leave: 1 },
          { list: 'queue-b', join: 1, leave: 0 },
        ]),
      );
      expect((await queue({ list: 'queue-a', kind: 'leave' })).data.map((r) => r.address)).toEqual([
        'second@example.org',
      ]);
      expect((await server.request('GET', '/api/2/requests/', { query: { kind: 'stay' } })).status).toBe(400);
    });

    it('approve joins and tells the requester; reject tells them why; discard tells nobody; each once', async () => {
      await createList('decided');
      const approve = await insertWaitingRequest(server.database.db, { accountId: server.account.id, list: 'decided', address: 'yes@example.org', now: clock.now() });
      const reject = await insertWaitingRequest(server.database.db, { accountId: server.account.id, list: 'decided', address: 'no@example.org', now: clock.now() });
      const discard = await insertWaitingRequest(server.database.db, { accountId: server.account.id, list: 'decided', address: 'spam@example.org', now: clock.now() });
      const approved = await server.request('POST', `/api/2/requests/${approve}/approve/`);
      expect(approved.status, approved.body).toBe(200);
      expect(RequestOutcome.parse(approved.json)).toEqual({ id: approve, action: 'approve', kind: 'join', address: 'yes@example.org' });
      expect(await listsOf('yes@example.org')).toEqual(['decided']);
      expect((await mailsTo(server, 'yes@example.org')).map((m) => m.subject)).toEqual([
        `Your request to join decided@${DOMAIN} is approved`,
      ]);
      const rejected = await server.request('POST', `/api/2/requests/${reject}/reject/`, { form: { reason: 'Members of the club only.' } });
      expect(rejected.status, rejected.body).toBe(200);
      const [refusal] = await mailsTo(server, 'no@example.org');
      expect(refusal?.body).toContain('Members of the club only.');
      expect(await listsOf('no@example.org')).toEqual([]);
      expect((await server.request('POST', `/api/2/requests/${discard}/discard/`)).status).toBe(200);
      expect(await mailsTo(server, 'spam@example.org')).toEqual([]);
      // Answered: gone from the queue, and a second answer finds nothing.
      expect((await server.request('POST', `/api/2/requests/${approve}/approve/`)).status).toBe(404);
      expect((await queue({ list: 'decided' })).count).toBe(0);
    });

    it('approves a leave: the membership ends', async () => {
      await createList('exit-row');
      await addMember('going@example.org', ['exit-row']);
      const id = await insertWaitingRequest(server.database.db, { accountId: server.account.id, list: 'exit-row', address: 'going@example.org', kind: 'leave', now: clock.now() });
      expect((await server.request('POST', `/api/2/requests/${id}/approve/`)).status).toBe(200);
      expect(await listsOf('going@example.org')).toEqual([]);
    });

    it('acts in bulk, all or none', async () => {
      await createList('bulk-queue');
      const ids = await Promise.all(
        ['b1', 'b2'].map((name) => insertWaitingRequest(server.database.db, { accountId: server.account.id, list: 'bulk-queue', address: `${name}@example.org`, now: clock.now() })),
      );
      const refused = await server.request('POST', '/api/2/requests/bulk/', { form: { action: 'approve', ids: [...ids, 999_999] } });
      expect(refused.status).toBe(400);
      expect((await queue({ list: 'bulk-queue' })).count).toBe(2);
      const done = await server.request('POST', '/api/2/requests/bulk/', { form: { action: 'approve', ids } });
      expect(done.status, done.body).toBe(200);
      expect(RequestBulkOutcome.parse(done.json).results.map((r) => r.address)).toEqual(['b1@example.org', 'b2@example.org']);
      expect(await listsOf('b2@example.org')).toEqual(['bulk-queue']);
    });

    it('a list-limited moderator sees and answers only their lists’ requests (spec §2.6 limit_lists)', async () => {
      await createList('theirs');
      await createList('not-theirs');
      const mine = await insertWaitingRequest(server.database.db, { accountId: server.account.id, list: 'theirs', now: clock.now() });
      const other = await insertWaitingRequest(server.database.db, { accountId: server.account.id, list: 'not-theirs', now: clock.now() });
      const created = await server.request('POST', '/api/2/users/', {
        form: { description: 'limited moderator', permissions: ['membership', 'limit_lists'], limit_lists: ['theirs'] },
      });
      expect(created.status, created.body).toBe(200);
      const key = (await server.request('PUT', `/api/2/users/${(created.json as { id: number }).id}/`, { form: { get_key: true } })).json as { key: string };
      const seen = await queue({}, key.key);
      expect(seen.data.map((r) => r.list)).toEqual(['theirs']);
      expect(seen.lists.map((l) => l.list)).toEqual(['theirs']);
      expect((await server.request('POST', `/api/2/requests/${other}/approve/`, { key: key.key })).status).toBe(404);
      expect((await server.request('POST', `/api/2/requests/${mine}/discard/`, { key: key.key })).status).toBe(200);
      const withoutPermission = await server.createKey({ accountId: server.account.id, permissions: ['contact'] });
      expect((await server.request('GET', '/api/2/requests/', { key: withoutPermission })).status).toBe(403);
    });
  });

  it('drops requests and tokens when they expire', async () => {
    const list = await createList('expiring');
    await people.fill(list, 'join', 'late@example.org', { remoteAddress: nextClient() });
    const link = linkIn((await mailsTo(server, 'late@example.org'))[0]?.body ?? '', 'confirm');
    const count = () =>
      server.database.db
        .selectFrom('member_requests')
        .select('id')
        .where('address_key', '=', 'late@example.org')
        .execute();
    expect(await count()).toHaveLength(1);
    clock.advance(3 * DAY);
    await purgeMembers(server.database.db, clock.now());
    expect(await count()).toEqual([]);
    expect((await people.post('POST', link)).status).toBe(404);
  });
});
