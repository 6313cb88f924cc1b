import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, type TestServer } from './test/harness.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';
import type { SunkMail } from './test/smtp-sink.ts';

/**
 * Issue 25 item 4: mail commands by real SMTP, as Mailman 3 has them, and the demo's "reply with
 * unsubscribe". Every join or leave is confirmed by the address concerned (SECURITY.md 44); the
 * answers are plain text and never go to automated mail (no loops).
 */
describeEachDialect('mail commands (issue 25)', (dialect) => {
  let rig: MailRig;
  let server: TestServer;
  const domain = 'lists.acme.example';

  const send = (mail: Parameters<MailRig['client']['sendMail']>[0]) => rig.client.sendMail(mail);
  const mailsTo = (mails: SunkMail[], address: string) =>
    mails.filter((m) => m.to.includes(address));
  const listsOf = (address: string) => rig.listsOf(address);
  const confirmAddressIn = (mail: SunkMail | undefined) =>
    mail?.parsed.replyTo?.value[0]?.address ?? '';

  beforeAll(async () => {
    rig = await startMailRig(dialect, { domain });
    server = rig.server;
    await rig.createLists({
      garden: {},
      vetted: { subscriptions: 'open+confirm', unsubscriptions: 'open+confirm' },
    });
  });
  afterAll(() => rig.close());

  it('-join@ mails a confirmation; a reply from that address joins; from another, nothing', async () => {
    let mark = await rig.mark();
    await send({
      from: 'joiner@example.org',
      to: `garden-join@${domain}`,
      subject: 'hi',
      text: '',
    });
    const [confirmation] = mailsTo(await rig.sentSince(mark), 'joiner@example.org');
    expect(confirmation?.parsed.subject).toBe(`Confirm joining garden@${domain}`);
    const confirmAt = confirmAddressIn(confirmation);
    expect(confirmAt).toMatch(
      new RegExp(`^garden-confirm\\+[A-Za-z0-9_-]{43}@${domain.replace(/\./g, '\\.')}$`),
    );
    expect(await listsOf('joiner@example.org')).toEqual([]);
    // Someone else who saw the mail replies: not the address the request is for.
    mark = await rig.mark();
    await send({
      from: 'eavesdropper@example.org',
      to: confirmAt,
      subject: `Re: ${confirmation?.parsed.subject ?? ''}`,
      text: 'yes',
    });
    expect(await listsOf('joiner@example.org')).toEqual([]);
    expect(await rig.sentSince(mark)).toEqual([]);
    await send({
      from: 'joiner@example.org',
      to: confirmAt,
      subject: `Re: ${confirmation?.parsed.subject ?? ''}`,
      text: 'yes please',
    });
    expect(await listsOf('joiner@example.org')).toEqual(['garden']);
    const [done] = mailsTo(await rig.sentSince(mark), 'joiner@example.org');
    expect(done?.parsed.subject).toBe(`Welcome to garden@${domain}`);
    expect(done?.parsed.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('-request@ with "unsubscribe" asks to leave; open+confirm waits for a moderator after the reply', async () => {
    await server.request('POST', '/api/2/contacts/', {
      form: { emails: ['member@example.org'], lists: ['garden', 'vetted'] },
    });
    let mark = await rig.mark();
    await send({
      from: 'member@example.org',
      to: `vetted-request@${domain}`,
      subject: 'unsubscribe',
      text: '',
    });
    const [confirmation] = mailsTo(await rig.sentSince(mark), 'member@example.org');
    expect(confirmation?.parsed.subject).toBe(`Confirm leaving vetted@${domain}`);
    mark = await rig.mark();
    await send({
      from: 'member@example.org',
      to: confirmAddressIn(confirmation),
      subject: 'Re: confirm',
      text: '',
    });
    const [waiting] = mailsTo(await rig.sentSince(mark), 'member@example.org');
    expect(waiting?.parsed.subject).toBe(
      `Your request to leave vetted@${domain} waits for a moderator`,
    );
    expect(await listsOf('member@example.org')).toEqual(['garden', 'vetted']);
    const queue = await server.request('GET', '/api/2/requests/', { query: { list: 'vetted' } });
    expect(
      (queue.json as { data: { address: string; kind: string; source: string }[] }).data,
    ).toEqual([
      expect.objectContaining({ address: 'member@example.org', kind: 'leave', source: 'mail' }),
    ]);
  });

  it('a reply to a post saying "unsubscribe" above the quote is answered as a command, not held; the member then leaves', async () => {
    await server.request('POST', '/api/2/contacts/', {
      form: { emails: ['replier@example.org'], lists: ['garden'] },
    });
    let mark = await rig.mark();
    await send({
      from: 'replier@example.org',
      to: `garden@${domain}`,
      subject: 'Re: [garden] Seed swap',
      text: 'unsubscribe\n\nOn Sun, 29 Nov 2026, Garden wrote:\n> Seed swap on Saturday.\n> --\n> To leave, reply with "unsubscribe".\n',
    });
    const held = await server.request('GET', '/api/2/held/', { query: { list: 'garden' } });
    expect((held.json as { count: number }).count).toBe(0);
    const sent = await rig.sentSince(mark);
    const [confirmation] = mailsTo(sent, 'replier@example.org');
    expect(confirmation?.parsed.subject).toBe(`Confirm leaving garden@${domain}`);
    // Nothing went to the list's members.
    expect(sent.filter((m) => m.parsed.subject?.includes('Seed swap'))).toEqual([]);
    mark = await rig.mark();
    await send({
      from: 'replier@example.org',
      to: confirmAddressIn(confirmation),
      subject: 'Re: confirm',
      text: '',
    });
    expect(await listsOf('replier@example.org')).toEqual([]);
  });

  it('holds what only looks like a command (another address), and answers no automated mail', async () => {
    const mark = await rig.mark();
    await send({
      from: 'mallory@example.org',
      to: `garden@${domain}`,
      subject: 'unsubscribe replier@example.org',
      text: '',
    });
    const held = await server.request('GET', '/api/2/held/', { query: { list: 'garden' } });
    expect((held.json as { data: { rule: string }[] }).data.map((h) => h.rule)).toContain(
      'administrivia',
    );
    await send({
      from: 'robot@example.org',
      to: `garden-join@${domain}`,
      subject: 'subscribe',
      text: '',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect(mailsTo(await rig.sentSince(mark), 'robot@example.org')).toEqual([]);
  });

  it('takes a bare -bounces address, refuses a made-up VERP token and an unknown address', async () => {
    // SECURITY.md 42: a token we never signed is refused at RCPT (mail-bounces.test.ts takes real ones).
    await expect(
      send({
        from: '',
        to: `garden-bounces+${'a'.repeat(40)}@${domain}`,
        subject: 'Undelivered',
        text: 'bounce',
      }),
    ).rejects.toThrow(/550/);
    await send({
      from: '',
      to: `garden-bounces@${domain}`,
      subject: 'Undelivered',
      text: 'bounce',
    });
    await expect(
      send({ from: 'x@example.org', to: `garden-unknown@${domain}`, subject: 'x', text: 'x' }),
    ).rejects.toThrow(/550/);
  });
});
