import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BounceState } from '../api/schemas/bounce.ts';
import { BOUNCE_DEFAULTS, DAY_MS, type BounceSettings } from './bounces/settings.ts';
import { sweepBounces } from './bounces/timer.ts';
import { unitOfWork } from './db/unit-of-work.ts';
import { memberLinks } from './members/links.ts';
import { storeChangedContactDocuments } from './services/contact-document-store.ts';
import { bounceFixture, type BounceFixture } from './test/bounce-fixtures.ts';
import { describeEachDialect, type TestServer } from './test/harness.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';
import type { SunkMail } from './test/smtp-sink.ts';
import { steppedClock } from './test/test-clock.ts';
import { toBase32 } from './tokens/base32.ts';
import { linkKey } from './tokens/signed-link.ts';

/**
 * Issue 26 item 1: bounces by real SMTP, after Mailman 3's bounce score. Each delivery's return
 * path is VERP; a DSN sent to it counts a hard failure once a day, pauses the address at the
 * threshold (with the `bounce` notice), and the timer warns and then removes it (`bounce_removal`).
 * The days pass on the server's clock, moved by the test, never by waiting.
 */
describeEachDialect('bounces (issue 26)', (dialect) => {
  let rig: MailRig;
  let server: TestServer;
  const domain = 'lists.acme.example';
  const clock = steppedClock(new Date('2026-03-02T09:00:00Z'));
  const settings: BounceSettings = { ...BOUNCE_DEFAULTS, sweepSeconds: 3600 };

  const send = (mail: Parameters<MailRig['client']['sendMail']>[0]) => rig.client.sendMail(mail);
  const mailsTo = (mails: SunkMail[], address: string) =>
    mails.filter((m) => m.to.includes(address));

  /** A post to `list` through the API; answers the copy each address got, by address. */
  async function post(list: string): Promise<Map<string, SunkMail>> {
    const mark = await rig.mark();
    const sent = await server.request('POST', '/api/2/messages/', {
      form: { list, subject: `News ${String(clock.now().getTime())}`, content_plain: 'Hello' },
    });
    expect(sent.status).toBe(200);
    const copies = new Map<string, SunkMail>();
    for (const mail of await rig.sentSince(mark)) for (const to of mail.to) copies.set(to, mail);
    return copies;
  }

  /** A bounce as a receiving MTA sends it: to the return path, from the null sender. */
  const bounce = (name: BounceFixture, returnPath: string, recipient: string) =>
    send({
      envelope: { from: '', to: [returnPath] },
      raw: bounceFixture(name, { returnPath, recipient }),
    });

  /** A real delivery of `list` to `address`, bounced with `name`. */
  async function bounceDelivery(
    list: string,
    address: string,
    name: BounceFixture = 'postfix-failed',
  ) {
    const copy = (await post(list)).get(address);
    expect(copy?.from).toMatch(
      new RegExp(`^${list}-bounces\\+[a-z2-7]+@${domain.replace(/\./g, '\\.')}$`),
    );
    await bounce(name, copy?.from ?? '', address);
    return copy?.from ?? '';
  }

  /** The audit log's entries of a bounce action, newest first. */
  async function auditOf(operation: string): Promise<Record<string, unknown>[]> {
    const answer = await server.request('GET', '/api/2/audit/', { query: { operation, limit: 100 } });
    expect(answer.status, answer.body).toBe(200);
    return (answer.json as { data: Record<string, unknown>[] }).data;
  }

  async function stateOf(address: string): Promise<BounceState | undefined> {
    const page = await server.request('GET', '/api/2/bounces/');
    expect(page.status).toBe(200);
    return (page.json as { data: BounceState[] }).data.find((state) => state.address === address);
  }

  const pausedOf = async (address: string) =>
    (
      (await server.request('GET', `/api/2/emails/${encodeURIComponent(address)}/`)).json as {
        paused: boolean;
      }
    ).paused;

  const listsOf = (address: string) => rig.listsOf(address);

  /** The mail service's bounce timer (mail-service.ts), run once on the server's clock. */
  async function sweep() {
    const db = server.database.db;
    const mark = await rig.mark();
    const swept = await sweepBounces(
      {
        db,
        unitOfWork: unitOfWork(db, storeChangedContactDocuments),
        links: memberLinks('https://lists.test'),
        linkKey: await linkKey(db),
        settings,
      },
      clock.now(),
    );
    return { swept, mails: await rig.sentSince(mark) };
  }

  const join = (address: string, lists: string[]) =>
    server.request('POST', '/api/2/contacts/', { form: { emails: [address], lists } });

  beforeAll(async () => {
    rig = await startMailRig(dialect, {
      domain,
      server: { clock },
      listener: { bounces: settings },
    });
    server = rig.server;
    await rig.createLists({ garden: {}, choir: {} });
    await server.request('POST', '/api/2/users/', {
      form: {
        username: 'owner@acme.example',
        permissions: ['contact'],
        notifications: ['bounce', 'bounce_removal'],
      },
    });
  });
  afterAll(() => rig.close());

  it('counts a DSN to a delivery’s return path once a day, a temporary one never; pauses at the threshold with the notice', async () => {
    await join('ann@example.org', ['garden']);
    await join('bob@example.org', ['garden']);
    await bounceDelivery('garden', 'ann@example.org');
    expect(await stateOf('ann@example.org')).toMatchObject({
      score: 1,
      last_kind: 'hard',
      last_status: '5.1.1',
      paused_since: null,
      lists: ['garden'],
    });
    expect((await stateOf('ann@example.org'))?.last_reason).toContain('User unknown');
    // The same day again, and a temporary failure: recorded, not counted.
    await bounceDelivery('garden', 'ann@example.org', 'exim-failed');
    await bounceDelivery('garden', 'ann@example.org', 'postfix-delayed');
    expect(await stateOf('ann@example.org')).toMatchObject({
      score: 1,
      last_kind: 'temporary',
      last_status: '4.2.2',
    });
    // A report of success and an auto-reply to the return path change nothing.
    await bounceDelivery('garden', 'ann@example.org', 'delivered');
    await bounceDelivery('garden', 'ann@example.org', 'auto-reply');
    expect(await stateOf('ann@example.org')).toMatchObject({ score: 1, last_kind: 'temporary' });

    for (const [day, fixture] of (
      ['qmail-failed', 'exchange-failed', 'exim-failed'] as const
    ).entries()) {
      clock.advance(DAY_MS);
      await bounceDelivery('garden', 'ann@example.org', fixture);
      expect((await stateOf('ann@example.org'))?.score).toBe(day + 2);
    }
    expect(await pausedOf('ann@example.org')).toBe(false);
    clock.advance(DAY_MS);
    const mark = await rig.mark();
    await bounceDelivery('garden', 'ann@example.org');
    const state = await stateOf('ann@example.org');
    expect(state?.score).toBe(5);
    expect(state?.paused_since?.slice(0, 10)).toBe(clock.now().toISOString().slice(0, 10));
    // Spec §2.2 `paused`, and the administrators who take `bounce` hear of it.
    expect(await pausedOf('ann@example.org')).toBe(true);
    const [notice] = mailsTo(await rig.sentSince(mark), 'owner@acme.example');
    expect(notice?.parsed.subject).toBe(`Bounces paused ann@example.org on garden@${domain}`);
    expect(notice?.parsed.text).toContain('User unknown');
    // The audit log has it, the system's, by mail (issue 26 item 4).
    expect(await auditOf('bounce.pause')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'system' }) as unknown,
        service: 'mail',
        object: expect.objectContaining({ type: 'email', list: 'garden' }) as unknown,
        changes: [{ field: 'paused', old: false, new: true }],
      }),
    ]);
    // A paused address gets no more of the list's mail; the others do.
    const copies = await post('garden');
    expect([...copies.keys()]).toEqual(['bob@example.org']);
  });

  it('warns the paused address on the timer, an interval apart, then removes it with the bounce_removal notice', async () => {
    // Ann, paused by the test before, keeps her contact: only her membership of garden goes.
    let { mails } = await sweep();
    const first = mailsTo(mails, 'ann@example.org');
    expect(first.map((m) => m.parsed.subject)).toEqual([
      `Your mail from garden@${domain} is paused (warning 1)`,
    ]);
    expect(first[0]?.parsed.text).toMatch(/https:\/\/lists\.test\/\S+/);
    // Sent from the plain bounce address: a bounce of a warning names nobody (no loop).
    expect(first[0]?.from).toBe(`garden-bounces@${domain}`);
    ({ mails } = await sweep());
    expect(mailsTo(mails, 'ann@example.org')).toEqual([]);
    for (const warning of [2, 3]) {
      clock.advance(settings.warningIntervalDays * DAY_MS);
      ({ mails } = await sweep());
      expect(mailsTo(mails, 'ann@example.org').map((m) => m.parsed.subject)).toEqual([
        `Your mail from garden@${domain} is paused (warning ${warning})`,
      ]);
    }
    expect(await listsOf('ann@example.org')).toEqual(['garden']);
    clock.advance(settings.warningIntervalDays * DAY_MS);
    ({ mails } = await sweep());
    expect(await listsOf('ann@example.org')).toEqual([]);
    expect(mailsTo(mails, 'owner@acme.example').map((m) => m.parsed.subject)).toEqual([
      `Bounces removed ann@example.org from garden@${domain}`,
    ]);
    expect(await auditOf('bounce.warn')).toHaveLength(3);
    expect(await auditOf('bounce.remove')).toEqual([
      expect.objectContaining({ object: expect.objectContaining({ type: 'membership', list: 'garden' }) as unknown }),
    ]);
    const removed = await stateOf('ann@example.org');
    expect(removed?.warnings_sent).toBe(3);
    expect(removed?.removed?.slice(0, 10)).toBe(clock.now().toISOString().slice(0, 10));
    ({ mails } = await sweep());
    expect(mails).toEqual([]);
  });

  it('starts a score again once stale; an administrator clears a pause and delivery resumes', async () => {
    await join('cy@example.org', ['choir']);
    await bounceDelivery('choir', 'cy@example.org');
    clock.advance(DAY_MS);
    await bounceDelivery('choir', 'cy@example.org');
    expect((await stateOf('cy@example.org'))?.score).toBe(2);
    clock.advance((settings.staleDays + 1) * DAY_MS);
    await bounceDelivery('choir', 'cy@example.org');
    expect((await stateOf('cy@example.org'))?.score).toBe(1);
    for (let day = 0; day < settings.threshold - 1; day += 1) {
      clock.advance(DAY_MS);
      await bounceDelivery('choir', 'cy@example.org');
    }
    expect(await pausedOf('cy@example.org')).toBe(true);
    const cleared = await server.request(
      'POST',
      `/api/2/bounces/${encodeURIComponent('cy@example.org')}/clear/`,
    );
    expect(cleared.json).toMatchObject({ address: 'cy@example.org', cleared: true, paused: false });
    expect(await pausedOf('cy@example.org')).toBe(false);
    expect(await stateOf('cy@example.org')).toBeUndefined();
    expect([...(await post('choir')).keys()]).toEqual(['cy@example.org']);
    // Nothing is left for the timer: no warning follows a cleared pause.
    const { mails } = await sweep();
    expect(mailsTo(mails, 'cy@example.org')).toEqual([]);
  });

  it('counts a recipient the relay refuses at RCPT TO with a 5xx; a 4xx counts nothing', async () => {
    await join('gone@example.org', ['choir']);
    await join('full@example.org', ['choir']);
    rig.sink.rejectRecipient = (address) =>
      address === 'gone@example.org' ? 550 : address === 'full@example.org' ? 450 : null;
    try {
      await post('choir');
    } finally {
      rig.sink.rejectRecipient = null;
    }
    expect(await stateOf('gone@example.org')).toMatchObject({
      score: 1,
      last_kind: 'hard',
      lists: ['choir'],
    });
    expect((await stateOf('gone@example.org'))?.last_reason).toContain('RCPT TO (550)');
    expect(await stateOf('full@example.org')).toBeUndefined();
  });

  it('SECURITY.md 47: a bounce counts only with a VERP token of a delivery we made; forged ones change nothing', async () => {
    await join('dora@example.org', ['garden', 'choir']);
    const returnPath = (await post('garden')).get('dora@example.org')?.from ?? '';
    const token = /\+([a-z2-7]+)@/.exec(returnPath)?.[1] ?? '';
    expect(token).not.toBe('');
    // The plain bounce address, naming the member in the report, is taken: it names nobody.
    const namesNobody = `garden-bounces@${domain}`;
    // SECURITY.md 42: a token that is not ours for that list is refused at RCPT TO.
    const forged = [
      // A token of our format that we never signed.
      `garden-bounces+${toBase32(randomBytes(((token.length * 5) / 8) | 0))}@${domain}`,
      // A real token of garden's delivery, sent to another list's bounce address.
      `choir-bounces+${token}@${domain}`,
      // The real token with one character changed.
      `garden-bounces+${token.slice(0, -4)}${token.slice(-4) === 'aaaa' ? 'bbbb' : 'aaaa'}@${domain}`,
    ];
    for (let day = 0; day < settings.threshold + 1; day += 1) {
      await bounce('postfix-failed', namesNobody, 'dora@example.org');
      for (const to of forged)
        await expect(bounce('postfix-failed', to, 'dora@example.org')).rejects.toThrow(/550/);
      clock.advance(DAY_MS);
    }
    expect(await stateOf('dora@example.org')).toBeUndefined();
    expect(await pausedOf('dora@example.org')).toBe(false);
    // Once the address changes, the old deliveries' tokens name nobody (the address is in the MAC).
    await server.request('PUT', `/api/2/emails/${encodeURIComponent('dora@example.org')}/`, {
      form: { email: 'dora@example.net' },
    });
    await expect(bounce('postfix-failed', returnPath, 'dora@example.org')).rejects.toThrow(/550/);
    expect(await stateOf('dora@example.net')).toBeUndefined();
  });

  it('a list-limited administrator sees the bounces of their lists’ members only, and clears only an address all theirs', async () => {
    const returnPath = await bounceDelivery('garden', 'dora@example.net');
    expect(returnPath).not.toBe('');
    const created = await server.request('POST', '/api/2/users/', {
      form: {
        description: 'choir moderator',
        permissions: ['membership', 'limit_lists'],
        limit_lists: ['choir'],
      },
    });
    const id = (created.json as { id: number }).id;
    const key = (
      (await server.request('PUT', `/api/2/users/${id}/`, { form: { get_key: true } })).json as {
        key: string;
      }
    ).key;
    const page = await server.request('GET', '/api/2/bounces/', { key });
    const seen = (page.json as { data: BounceState[] }).data;
    // Ann left garden (her only list); gone@ is on choir; Dora is on both, her garden bounce unnamed.
    expect(seen.map((state) => state.address).sort()).toEqual([
      'dora@example.net',
      'gone@example.org',
    ]);
    expect(seen.find((state) => state.address === 'dora@example.net')?.lists).toEqual([]);
    expect(
      (await server.request('GET', '/api/2/bounces/', { key, query: { list: 'garden' } })).status,
    ).toBe(403);
    const clear = (address: string) =>
      server.request('POST', `/api/2/bounces/${encodeURIComponent(address)}/clear/`, { key });
    // Resuming Dora reaches garden too, which is not theirs.
    expect((await clear('dora@example.net')).status).toBe(403);
    expect((await stateOf('dora@example.net'))?.score).toBe(1);
    expect((await clear('gone@example.org')).json).toMatchObject({ cleared: true, paused: false });
  });
});
