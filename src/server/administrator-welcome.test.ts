import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Caller } from '../api/schemas/caller.ts';
import { hashKey, verifyPassword } from './auth/keys.ts';
import { manualClock } from './lib/clock.ts';
import { OutboxWorker } from './mail/outbox.ts';
import { SINK_FOLDER, sinkTransport } from './mail/transport.ts';
import { createClient } from './oauth/clients.service.ts';
import { Browser, PASSWORD, requestParams, signIn } from './oauth/oauth-test-support.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { mailsTo, publicClient } from './test/public-client.ts';
import { testClock } from './test/test-clock.ts';

const DOMAIN = 'lists.welcome.example';
const DAY = 86_400_000;

/**
 * Issue 27 item 4: "Send a welcome email" (spec §2.6 `welcome_email`, default true) mails a person
 * created without a password a one-time link to choose one (SECURITY.md 41 and 42 for that link).
 */
describeEachDialect('the welcome mail of a new administrator (issue 27 item 4)', (dialect) => {
  const clock = manualClock(testClock().now());
  let server: TestServer;
  let people: ReturnType<typeof publicClient>;
  let sinkDir: string;
  let worker: OutboxWorker;
  let count = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect, { clock });
    await server.database.db
      .updateTable('accounts')
      .set({ domain: DOMAIN })
      .where('id', '=', server.account.id)
      .execute();
    server.forgetCachedAuth();
    people = publicClient(server, clock);
    sinkDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-welcome-'));
    worker = new OutboxWorker({
      db: server.database.db,
      transport: sinkTransport(sinkDir),
      batchSize: 10,
      now: () => clock.now().getTime(),
      publicOrigin: () => 'https://lists.welcome.example',
    });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(sinkDir, { recursive: true, force: true });
  });

  const freshUsername = () => `new.admin${(count += 1)}@people.example`;
  const create = async (
    form: Record<string, unknown>,
    key = server.accountKey,
    query?: Record<string, unknown>,
  ) => {
    const created = await server.request('POST', '/api/2/users/', { key, form, query });
    expect(created.status, created.body).toBe(200);
    return created.json as { id: number; username: string };
  };
  /** The path of the set-password link in the one welcome mail to `to`. */
  const linkTo = async (to: string) => {
    const mails = await mailsTo(server, to);
    expect(mails).toHaveLength(1);
    const found = /https?:\/\/\S+\/password\/[A-Za-z0-9_-]{43}/.exec(mails[0]?.body ?? '')?.[0];
    if (!found) throw new Error(`no link in ${mails[0]?.body}`);
    return new URL(found).pathname;
  };
  const passwordHashOf = async (id: number) =>
    (
      await server.database.db
        .selectFrom('administrators')
        .select('password_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).password_hash;
  const setPassword = (link: string, password: string, confirm = password) =>
    people.post('POST', link, { form: { password, confirm } });

  it('mails a person created without a password a link to choose one, from the account domain', async () => {
    const username = freshUsername();
    await create({ username, firstname: 'Ada' });
    const [mail] = await mailsTo(server, username);
    expect(mail).toMatchObject({
      kind: 'administrator-welcome',
      from_address: `no-reply@${DOMAIN}`,
    });
    expect(mail?.body).toMatch(/^Hello Ada,/);
    expect(mail?.body).toContain(`with the username ${username}`);
    expect(mail?.body).toContain('at least 12 characters');
    expect(mail?.body).toContain('works once, for 7 days');
    const link = await linkTo(username);
    // SECURITY.md 42: 256 random bits, only the hash stored, bound to the person, 7 days.
    const token = link.slice('/password/'.length);
    const rows = await server.database.db
      .selectFrom('mail_tokens')
      .selectAll()
      .where('purpose', '=', 'password')
      .execute();
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
    const row = rows.find((candidate) => candidate.token_hash === hashKey(token));
    expect(row).toMatchObject({
      account_id: server.account.id,
      list_id: null,
      address_key: username,
      used_at: null,
    });
    expect(Date.parse(row?.expires_at ?? '') - clock.now().getTime()).toBe(7 * DAY);

    // Through the outbox, as every notice: one message to the username, the link in its text.
    await worker.drainAll();
    const sink = path.join(sinkDir, SINK_FOLDER);
    const sent = await Promise.all(
      fs
        .readdirSync(sink)
        .map(async (name) => simpleParser(fs.readFileSync(path.join(sink, name)))),
    );
    const welcome = sent.find((message) => message.text?.includes(token));
    expect(welcome?.from?.text).toBe(`no-reply@${DOMAIN}`);
    expect(welcome?.subject).toBe(`Your administrator sign-in for ${server.account.name}`);
    expect(welcome?.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('sends nothing when a password is given, welcome_email is false, or it is an API key', async () => {
    const withPassword = freshUsername();
    await create({ username: withPassword, password: 'a long enough password' });
    const optedOut = freshUsername();
    await create({ username: optedOut, welcome_email: false });
    await create({ description: `Key of ${freshUsername()}` });
    expect(await mailsTo(server, withPassword)).toEqual([]);
    expect(await mailsTo(server, optedOut)).toEqual([]);
  });

  it('welcomes a global administrator too, from the host of PUBLIC_URL (no account, no domain)', async () => {
    const username = freshUsername();
    await create({ username, permissions: ['account'] }, server.globalKey);
    const [mail] = await mailsTo(server, username);
    expect(mail?.from_address).toBe(`no-reply@[127.0.0.1]`);
    expect(mail?.body).toContain('of the group');
    const notice = await server.database.db
      .selectFrom('notices')
      .select('account_id')
      .where('id', '=', mail?.id ?? 0)
      .executeTakeFirst();
    expect(notice?.account_id).toBeNull();
    // Its link works as anyone's: the token of no account finds its global administrator.
    expect((await people.get(await linkTo(username))).status).toBe(200);
  });

  it('shows the form on GET and changes nothing; refuses a short or mistyped password on its field', async () => {
    const username = freshUsername();
    const { id } = await create({ username });
    const link = await linkTo(username);
    const page = await people.get(link);
    expect(page.status).toBe(200);
    expect(page.body).toContain(username);
    for (const field of ['password', 'confirm'])
      expect(page.body).toMatch(
        new RegExp(
          `<input id="${field}" type="password" autocomplete="new-password"[^>]* name="${field}"`,
          'i',
        ),
      );
    expect(page.body).toContain('At least 12 characters.');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['set-cookie']).toBeUndefined();
    // A second GET still works: GET never uses the link (SECURITY.md 41).
    expect((await people.get(link)).status).toBe(200);

    const short = await setPassword(link, 'too short');
    expect(short.status).toBe(400);
    expect(short.body).toContain('The password needs at least 12 characters: it has 9.');
    const mistyped = await setPassword(link, 'a long enough password', 'a long enough passw0rd');
    expect(mistyped.status).toBe(400);
    expect(mistyped.body).toContain('The two passwords differ');
    // Neither refusal used the link.
    expect(await passwordHashOf(id)).toBeNull();
    expect((await setPassword(link, 'a long enough password')).status).toBe(200);
  });

  it('sets the password once, ends other sign-ins, and the person signs in with it', async () => {
    const username = freshUsername();
    const { id } = await create({ username, permissions: ['superadmin'] });
    const link = await linkTo(username);
    // A sign-in already open for them (as if someone had given a password before) ends.
    await server.database.db
      .insertInto('oauth_sessions')
      .values({
        session_hash: hashKey(`old session ${id}`),
        administrator_id: id,
        created: clock.now().toISOString(),
        expires_at: new Date(clock.now().getTime() + DAY).toISOString(),
      })
      .execute();

    const done = await setPassword(link, PASSWORD);
    expect(done.status).toBe(200);
    expect(done.body).toContain('Your password is set');
    expect(done.body).toContain(username);
    expect(done.body).toMatch(/href="http:\/\/127\.0\.0\.1:\d+\/"/);
    const hash = await passwordHashOf(id);
    expect(await verifyPassword(PASSWORD, hash ?? '')).toBe(true);
    expect(
      await server.database.db
        .selectFrom('oauth_sessions')
        .select('id')
        .where('administrator_id', '=', id)
        .execute(),
    ).toEqual([]);

    // The server's own sign-in page takes it.
    const client = await createClient(server.database.db, {
      name: 'Welcome test',
      redirectUris: ['https://client.example/cb'],
      isPublic: false,
    });
    expect(await signIn(server, new Browser(), requestParams(client), username)).toMatch(/consent/);

    // Used: a 4xx page, and nothing changes (SECURITY.md 42).
    expect((await people.get(link)).status).toBe(404);
    const again = await setPassword(link, 'another long password');
    expect(again.status).toBe(404);
    expect(again.body).toContain('This link does not work');
    expect(await passwordHashOf(id)).toBe(hash);
  });

  it('refuses an expired, forged or re-addressed link with a 404 page and changes nothing', async () => {
    const expiring = freshUsername();
    const { id } = await create({ username: expiring });
    const link = await linkTo(expiring);
    clock.advance(7 * DAY + 1000);
    try {
      expect((await people.get(link)).status).toBe(404);
      expect((await setPassword(link, 'a long enough password')).status).toBe(404);
      expect(await passwordHashOf(id)).toBeNull();
    } finally {
      clock.advance(-(7 * DAY + 1000));
    }

    for (const forged of [
      '/password/' + 'A'.repeat(43),
      '/password/short',
      '/password/' + link.slice(-43, -1) + 'x',
    ])
      for (const answer of [
        await people.get(forged),
        await setPassword(forged, 'a long enough password'),
      ]) {
        expect(answer.status).toBe(404);
        expect(answer.body).toContain('nothing was changed');
      }

    // Bound to the address it was mailed to: a new username makes the old mail's link dead.
    const moved = freshUsername();
    const other = await create({ username: moved });
    const movedLink = await linkTo(moved);
    expect(
      (
        await server.request('PUT', `/api/2/users/${other.id}/`, {
          form: { username: freshUsername() },
        })
      ).status,
    ).toBe(200);
    expect((await setPassword(movedLink, 'a long enough password')).status).toBe(404);
    expect(await passwordHashOf(other.id)).toBeNull();
  });

  it('tells the dashboard what the welcome email holds (caller.get)', async () => {
    const caller = Caller.parse((await server.request('GET', '/api/2/caller/')).json);
    expect(caller.welcome_email).toEqual({ password_link_days: 7 });
  });

  describe('on a spec-only server (EXTENSIONS=off)', () => {
    let plain: TestServer;
    beforeAll(async () => {
      plain = await startTestServer(dialect, { extensions: false, clock });
    });
    afterAll(() => plain.close());

    it('still sends the welcome email spec §2.6 asks for, with its link', async () => {
      const username = freshUsername();
      expect((await plain.request('POST', '/api/2/users/', { form: { username } })).status).toBe(
        200,
      );
      const [mail] = await mailsTo(plain, username);
      expect(mail?.body).toMatch(/\/password\/[A-Za-z0-9_-]{43}/);
    });
  });
});
