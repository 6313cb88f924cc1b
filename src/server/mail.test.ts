import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeldMessageDetail, HeldOutcome, HeldPage } from '../api/schemas/held.ts';
import { MessagePage } from '../api/schemas/message.ts';
import { describeEachDialect, type TestServer } from './test/harness.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';

/**
 * Issue 18 items 2, 4, 6: mail in by real SMTP, the posting policy, the held queue, and mail out
 * through a real SMTP relay (a sink on a loopback port). SECURITY.md 35–37.
 */
describeEachDialect('mail in and out', (dialect) => {
  let rig: MailRig;
  let server: TestServer;
  let sink: MailRig['sink'];
  let worker: MailRig['worker'];
  let client: MailRig['client'];
  const domain = 'acme.example';
  const members = ['ann@members.example', 'bob@members.example'];

  async function createList(name: string, settings: Record<string, unknown>): Promise<void> {
    await rig.createLists({ [name]: settings });
  }

  async function send(
    to: string,
    subject: string,
    text: string,
    headers: Record<string, string> = {},
    from = 'carol@outside.example',
  ): Promise<unknown> {
    return client.sendMail({ from, to, subject, text, headers }) as Promise<unknown>;
  }

  const heldPage = async () =>
    HeldPage.parse((await server.request('GET', '/api/2/held/', { query: { limit: 100 } })).json);
  const archive = async () =>
    MessagePage.parse(
      (await server.request('GET', '/api/2/messages/', { query: { limit: 100 } })).json,
    );

  beforeAll(async () => {
    rig = await startMailRig(dialect, { domain });
    ({ server, sink, worker, client } = rig);
    // The senders' domains let the test's client (127.0.0.1) send their mail (SPF): they
    // authenticate, so notices may go back to them (issue 28, no backscatter).
    for (const senders of ['outside.example', 'members.example'])
      rig.dns.setTxt(senders, 'v=spf1 ip4:127.0.0.1 -all');
    await createList('moderated', {
      moderate: 1,
      subject_prefix: '[moderated]',
      message_footer: 'You are on the moderated list.',
      message_footer_html: '<p>HTML footer of moderated</p>',
      send_hold_message: true,
    });
    await createList('taboo', { taboo_body: ['forbidden\\s+word'] });
    await createList('restricted', {
      moderate: 6,
      restrict_post_lists: ['restricted'],
      message_rejections: 2,
      send_reject_message: true,
      reject_message: 'No posting to $LISTNAME about "$SUBJECT".',
    });
    const contact = await server.request('POST', '/api/2/contacts/', {
      form: { emails: members, lists: ['moderated', 'restricted'] },
    });
    expect(contact.status, contact.body).toBe(200);
  });
  afterAll(() => rig.close());

  it('holds a message to a moderated list, and approval sends it out with prefix and footer and archives it', async () => {
    await send(`moderated@${domain}`, 'Meeting on Friday', 'See you there.');
    const held = (await heldPage()).data.find((h) => h.subject === 'Meeting on Friday');
    expect(held).toMatchObject({
      list: 'moderated',
      rule: 'hold-all',
      from_address: 'carol@outside.example',
    });
    const detail = HeldMessageDetail.parse(
      (await server.request('GET', `/api/2/held/${String(held?.id)}/`)).json,
    );
    expect(detail.content_plain).toContain('See you there.');
    await worker.drainAll();
    // The sender was told it is held (send_hold_message), the members got nothing yet.
    const holdNotice = sink.mails.find((m) => m.to.includes('carol@outside.example'));
    expect(holdNotice?.parsed.subject).toContain('held');
    expect(holdNotice?.parsed.headers.get('auto-submitted')).toBe('auto-replied');
    expect(sink.mails.some((m) => m.to.includes(members[0] ?? ''))).toBe(false);

    const approved = await server.request('POST', `/api/2/held/${String(held?.id)}/approve/`);
    const outcome = HeldOutcome.parse(approved.json);
    await worker.drainAll();
    const delivered = sink.mails.filter(
      (m) => m.parsed.subject === '[moderated] Meeting on Friday',
    );
    expect(delivered.flatMap((m) => m.to).sort()).toEqual([...members].sort());
    const mail = delivered[0];
    expect(mail?.parsed.text).toContain('See you there.');
    expect(mail?.parsed.text).toContain('You are on the moderated list.');
    expect(mail?.parsed.html).toContain('HTML footer of moderated');
    expect(mail?.raw.toString()).toMatch(new RegExp(`^List-Id: <moderated\\.${domain}>\r$`, 'im'));
    expect(mail?.raw.toString()).toMatch(
      new RegExp(`^List-Post: <mailto:moderated@${domain}>\r$`, 'im'),
    );
    // VERP (issue 26): the return path names this delivery's list and address.
    expect(mail?.from).toMatch(new RegExp(`^moderated-bounces\\+[a-z2-7]+@${domain.replace(/\./g, '\\.')}$`));
    expect((await archive()).data.find((m) => m.id === outcome.message)).toMatchObject({
      subject: 'Meeting on Friday',
      list: 'moderated',
    });
  });

  it('holds a taboo match naming the rule and the pattern', async () => {
    await send(`taboo@${domain}`, 'Harmless subject', 'This has a forbidden   word in it.');
    const held = (await heldPage()).data.find((h) => h.subject === 'Harmless subject');
    expect(held).toMatchObject({ list: 'taboo', rule: 'taboo-body', setting: 'taboo_body[0]' });
    expect(held?.reason).toContain('forbidden');
  });

  it('answers a non-member of a restricted list with the reject message, and archives nothing', async () => {
    const before = sink.mails.length;
    await send(`restricted@${domain}`, 'Buy now', 'Offer inside.', {}, 'spammer@outside.example');
    await worker.drainAll();
    const notices = sink.mails
      .slice(before)
      .filter((m) => m.to.includes('spammer@outside.example'));
    expect(notices).toHaveLength(1);
    expect(notices[0]?.parsed.text).toContain(
      `No posting to restricted@${domain} about "Buy now".`,
    );
    expect((await archive()).data.map((m) => m.subject)).not.toContain('Buy now');
    expect((await heldPage()).data.map((h) => h.subject)).not.toContain('Buy now');
  });

  it('accepts a member of a restricted list: archived and sent to every member', async () => {
    const before = sink.mails.length;
    await send(`restricted@${domain}`, 'Member news', 'From a member.', {}, members[1]);
    await worker.drainAll();
    const sent = sink.mails.slice(before).filter((m) => m.parsed.subject === 'Member news');
    expect(sent.flatMap((m) => m.to).sort()).toEqual([...members].sort());
    expect((await archive()).data.map((m) => m.subject)).toContain('Member news');
  });

  it('takes a list’s address in the case a sender typed it, and delivers once for two spellings', async () => {
    const before = sink.mails.length;
    // nodemailer sends on to the accepted recipients and names the refused ones here.
    const info = (await client.sendMail({
      from: members[1],
      to: [`Restricted@${domain.toUpperCase()}`, `restricted@${domain}`],
      subject: 'Typed in capitals',
      text: 'From a member.',
    })) as { rejected: string[] };
    expect(info.rejected).toEqual([]);
    await worker.drainAll();
    const sent = sink.mails.slice(before).filter((m) => m.parsed.subject === 'Typed in capitals');
    expect(sent.flatMap((m) => m.to).sort()).toEqual([...members].sort());
    const archived = (await archive()).data.filter((m) => m.subject === 'Typed in capitals');
    expect(archived).toHaveLength(1);

    // Two lists whose names differ only in case each get their own copy.
    await createList('echo', {});
    await createList('Echo', {});
    await client.sendMail({
      from: members[1],
      to: [`echo@${domain}`, `Echo@${domain}`],
      subject: 'To both echoes',
      text: 'Hello.',
    });
    await worker.drainAll();
    const echoes = (await archive()).data.filter((m) => m.subject === 'To both echoes');
    expect(echoes.map((m) => m.list).sort()).toEqual(['Echo', 'echo']);
  });

  it('is no relay: refuses at RCPT any address that is not a list of the account’s domain', async () => {
    for (const to of ['someone@elsewhere.example', `nolist@${domain}`, 'moderated@other.example']) {
      const refused = await send(to, 'Relay me', 'Please.').then(
        () => null,
        (error: unknown) => error as { responseCode?: number },
      );
      expect(refused?.responseCode, to).toBe(550);
    }
  });

  it('refuses for good (554, not 451 "try later") a message it cannot read, keeping nothing of it', async () => {
    const heldBefore = (await heldPage()).count;
    // 1200 MIME parts: more than mailparser reads (1000), in well under SMTP_IN_MAX_BYTES.
    const parts = Array.from(
      { length: 1200 },
      () => '--b\r\nContent-Type: text/plain\r\n\r\nx\r\n',
    );
    const raw = `From: carol@outside.example\r\nSubject: Many parts\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n${parts.join('')}--b--\r\n`;
    const refused = await client
      .sendMail({ envelope: { from: 'carol@outside.example', to: `moderated@${domain}` }, raw })
      .then(
        () => null,
        (error: unknown) => error as { responseCode?: number },
      );
    expect(refused?.responseCode).toBe(554);
    expect((await heldPage()).count).toBe(heldBefore);
  });

  it('drops the list’s own mail coming back (List-Id, X-Loop) without answering it', async () => {
    const before = sink.mails.length;
    const heldBefore = (await heldPage()).count;
    await send(`moderated@${domain}`, 'Looped', 'Again.', { 'X-Loop': `moderated@${domain}` });
    await send(`moderated@${domain}`, 'Looped by List-Id', 'Again.', {
      'List-Id': `Moderated <moderated.${domain}>`,
    });
    await worker.drainAll();
    expect(sink.mails.length).toBe(before);
    expect((await heldPage()).count).toBe(heldBefore);
    expect((await archive()).data.map((m) => m.subject)).not.toContain('Looped');
  });

  it('never answers an auto-reply: held by hold_automated, the sender not told', async () => {
    const before = sink.mails.length;
    await send(
      `taboo@${domain}`,
      'Out of office',
      'I am away.',
      { 'Auto-Submitted': 'auto-replied' },
      'robot@outside.example',
    );
    await worker.drainAll();
    expect((await heldPage()).data.find((h) => h.subject === 'Out of office')).toMatchObject({
      rule: 'automated',
    });
    expect(sink.mails.slice(before).some((m) => m.to.includes('robot@outside.example'))).toBe(
      false,
    );
  });

  it('holds a message sent twice (the same Message-ID, as an MTA retrying sends it) once, and takes both', async () => {
    const before = sink.mails.length;
    const messageId = `<twice-${Date.now()}@outside.example>`;
    for (let copy = 0; copy < 2; copy += 1)
      await client.sendMail({
        from: 'erin@outside.example',
        to: `moderated@${domain}`,
        subject: 'Sent twice',
        text: 'Did my first try get through?',
        messageId,
      });
    await worker.drainAll();
    expect((await heldPage()).data.filter((h) => h.message_id === messageId)).toHaveLength(1);
    // One hold notice (send_hold_message is on), not one per copy.
    expect(
      sink.mails.slice(before).filter((m) => m.to.includes('erin@outside.example')),
    ).toHaveLength(1);
  });

  describe('notices about held messages', () => {
    /** What went to `address` since the mark `before`. */
    const mailsTo = (address: string, before: number) =>
      sink.mails.slice(before).filter((m) => m.to.includes(address));

    it('tells the list’s moderator of a held message (notify_approval 1), from the list’s bounce address', async () => {
      await createList('watched', {
        moderate: 1,
        notify_approval: 1,
        moderator: 'mod@watchers.example',
      });
      const before = sink.mails.length;
      await send(`watched@${domain}`, 'Watch this', 'Is this on topic?');
      const held = (await heldPage()).data.find((h) => h.subject === 'Watch this');
      await worker.drainAll();
      const [notice, ...more] = mailsTo('mod@watchers.example', before);
      expect(more).toEqual([]);
      expect(notice?.from).toBe(`watched-bounces@${domain}`);
      expect(notice?.parsed.subject).toBe(`A message to watched@${domain} is held for approval`);
      expect(notice?.parsed.headers.get('auto-submitted')).toBe('auto-generated');
      expect(notice?.parsed.text).toContain('From: carol@outside.example');
      expect(notice?.parsed.text).toContain('Subject: Watch this');
      expect(notice?.parsed.text).toContain(`Why: ${held?.reason ?? '?'}`);
      expect(notice?.parsed.text).toContain(`held message ${String(held?.id)}`);
    });

    it('without a moderator tells the administrators who take approval notices; with notify_approval 0 nobody', async () => {
      for (const [username, notifications] of [
        ['approver@acme.example', ['approval']],
        ['quiet@acme.example', ['subscription']],
      ] as const) {
        // No welcome mail (issue 27 item 4): this test counts the notices they receive.
        const user = await server.request('POST', '/api/2/users/', {
          form: { username, permissions: ['approval'], notifications, welcome_email: false },
        });
        expect(user.status, user.body).toBe(200);
      }
      await createList('managed', { moderate: 1, notify_approval: 1 });
      await createList('unannounced', { moderate: 1, notify_approval: 0 });
      // A moderator stored before writes required an address (SECURITY.md 37) is not a recipient.
      await createList('legacy', { moderate: 1, notify_approval: 1 });
      const legacy = 'mod@old.example\r\nBcc: v@evil.example';
      const row = await server.database.db
        .selectFrom('lists')
        .select('settings')
        .where('name', '=', 'legacy')
        .executeTakeFirstOrThrow();
      await server.database.db
        .updateTable('lists')
        .set({ settings: JSON.stringify({ ...JSON.parse(row.settings), moderator: legacy }) })
        .where('name', '=', 'legacy')
        .execute();
      const before = sink.mails.length;
      await send(`managed@${domain}`, 'For the managers', 'Hello.');
      await send(`unannounced@${domain}`, 'For nobody', 'Hello.');
      await send(`legacy@${domain}`, 'For the managers too', 'Hello.');
      await worker.drainAll();
      expect(mailsTo('approver@acme.example', before).map((m) => m.parsed.subject)).toEqual([
        `A message to managed@${domain} is held for approval`,
        `A message to legacy@${domain} is held for approval`,
      ]);
      expect(mailsTo('mod@old.example', before)).toEqual([]);
      expect(mailsTo('quiet@acme.example', before)).toEqual([]);
      // Both are held all the same.
      expect((await heldPage()).data.map((h) => h.subject)).toEqual(
        expect.arrayContaining(['For the managers', 'For nobody']),
      );
    });

    it('sends the sender the list’s reject message, with the moderator’s reason, when a moderator rejects; a discard tells nobody', async () => {
      await createList('strict', {
        moderate: 1,
        send_reject_message: true,
        reject_subject: 'Not posted to $LISTNAME',
        reject_message: 'Sorry, $LISTNAME did not take "$SUBJECT".',
      });
      const from = 'dave@outside.example';
      await send(`strict@${domain}`, 'Please post', 'My news.', {}, from);
      await send(`strict@${domain}`, 'Spam to drop', 'Buy.', {}, from);
      const heldNow = (await heldPage()).data;
      const rejected = heldNow.find((h) => h.subject === 'Please post');
      const discarded = heldNow.find((h) => h.subject === 'Spam to drop');
      await worker.drainAll();
      const before = sink.mails.length;
      const reject = await server.request('POST', `/api/2/held/${String(rejected?.id)}/reject/`, {
        form: { reason: 'Off topic here.' },
      });
      expect(reject.status, reject.body).toBe(200);
      const discard = await server.request('POST', `/api/2/held/${String(discarded?.id)}/discard/`);
      expect(discard.status, discard.body).toBe(200);
      await worker.drainAll();
      const [notice, ...more] = mailsTo(from, before);
      expect(more).toEqual([]);
      expect(notice?.parsed.subject).toBe(`Not posted to strict@${domain}`);
      expect(notice?.parsed.text).toContain(`Sorry, strict@${domain} did not take "Please post".`);
      expect(notice?.parsed.text).toContain('Off topic here.');
      expect(notice?.parsed.headers.get('auto-submitted')).toBe('auto-replied');
      expect((await archive()).data.map((m) => m.subject)).not.toContain('Please post');
    });
  });

  describe('threading', () => {
    it('threads a reply by In-Reply-To under the archived message', async () => {
      await send(`restricted@${domain}`, 'Thread start', 'First.', {}, members[0]);
      const parent = (await archive()).data.find((m) => m.subject === 'Thread start');
      await client.sendMail({
        from: members[1],
        to: `restricted@${domain}`,
        subject: 'Re: Thread start',
        text: 'Second.',
        inReplyTo: parent?.message_id,
        references: parent?.message_id,
      });
      const reply = (await archive()).data.find((m) => m.subject === 'Re: Thread start');
      expect(reply).toMatchObject({ parent: parent?.id, thread_id: parent?.thread_id });
    });

    it('threads a reply by References alone (no In-Reply-To) under the nearest message the list holds', async () => {
      await send(`restricted@${domain}`, 'Refs root', 'Root.', {}, members[0]);
      const root = (await archive()).data.find((m) => m.subject === 'Refs root');
      const reply = async (subject: string, references: string[]) => {
        await client.sendMail({
          from: members[1],
          to: `restricted@${domain}`,
          subject,
          text: 'A reply.',
          references,
        });
        return (await archive()).data.find((m) => m.subject === subject);
      };
      // The last reference is the nearest; one the list never saw is passed over.
      const first = await reply('Re: Refs root', [
        root?.message_id ?? '',
        '<never-seen@elsewhere.example>',
      ]);
      expect(first).toMatchObject({ parent: root?.id, thread_id: root?.thread_id });
      const second = await reply('Re: Re: Refs root', [
        root?.message_id ?? '',
        first?.message_id ?? '',
      ]);
      expect(second).toMatchObject({ parent: first?.id, thread_id: root?.thread_id });
    });
  });
});
