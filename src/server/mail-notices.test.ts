import { afterAll, beforeAll, expect, it } from 'vitest';
import { HeldPage } from '../api/schemas/held.ts';
import { describeEachDialect, type TestServer } from './test/harness.ts';
import { insertHeldMessage } from './test/held-fixtures.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';

/**
 * Issue 28 item 2, two findings of the probe on the notices mail sends: a reject notice went to a
 * list's own address (it came back in as mail); and a sender wrote lines of their own into the
 * moderator's notice through a subject that, encoded, held CR/LF.
 */
describeEachDialect('what notices say, and to whom', (dialect) => {
  let rig: MailRig;
  let server: TestServer;
  let client: MailRig['client'];
  const domain = 'acme.example';

  beforeAll(async () => {
    rig = await startMailRig(dialect, { domain });
    ({ server, client } = rig);
    // Mail from the lists' own domain authenticates: only the list-address rule keeps it unanswered.
    for (const name of [domain, 'outside.example'])
      rig.dns.setTxt(name, 'v=spf1 ip4:127.0.0.1 -all');
    await rig.createLists({
      alpha: { moderate: 1, send_reject_message: true },
      beta: {},
      closed: {
        moderate: 10,
        restrict_post_allowed_emails: ['nobody@outside.example'],
        message_rejections: 2,
        send_reject_message: true,
      },
      watched: { moderate: 1, notify_approval: 1, moderator: 'mod@outside.example' },
      'self-moderated': { moderate: 1, notify_approval: 1, moderator: `beta@${domain}` },
    });
  });
  afterAll(() => rig.close());

  it('a moderator’s rejection of a message from a list’s address sends that list no notice', async () => {
    const id = await insertHeldMessage(server.database.db, {
      accountId: server.account.id,
      list: 'alpha',
      tag: 'acme',
      subject: 'From the list itself',
      from: `alpha@${domain}`,
    });
    const before = await rig.mark();
    const rejected = await server.request('POST', `/api/2/held/${id}/reject/`, {
      form: { reason: 'No.' },
    });
    expect(rejected.status, rejected.body).toBe(200);
    expect(await rig.sentSince(before)).toEqual([]);
  });

  it('a rejection of mail from another list’s address, authenticated, answers nobody', async () => {
    const before = await rig.mark();
    await client.sendMail({
      from: `beta@${domain}`,
      to: `closed@${domain}`,
      subject: 'As another list',
      text: 'Hello.',
    });
    expect(await rig.sentSince(before)).toEqual([]);
    // The same from a person is answered: it is the list's address that keeps it quiet.
    await client.sendMail({
      from: 'someone@outside.example',
      to: `closed@${domain}`,
      subject: 'As a person',
      text: 'Hello.',
    });
    expect((await rig.sentSince(before)).map((mail) => mail.to)).toEqual([
      ['someone@outside.example'],
    ]);
  });

  it('tells no moderator whose address is a list’s', async () => {
    const before = await rig.mark();
    await client.sendMail({
      from: 'someone@outside.example',
      to: `self-moderated@${domain}`,
      subject: 'Moderated by a list',
      text: 'Hello.',
    });
    const held = HeldPage.parse((await server.request('GET', '/api/2/held/')).json).data;
    expect(held.map((message) => message.subject)).toContain('Moderated by a list');
    expect((await rig.sentSince(before)).map((mail) => mail.to)).not.toContainEqual([
      `beta@${domain}`,
    ]);
  });

  it('keeps each value the moderator’s notice quotes on its own line', async () => {
    const before = await rig.mark();
    // RFC 2047: the subject decodes to three lines, the last two posing as the notice's own.
    await client.sendMail({
      envelope: { from: 'someone@outside.example', to: `watched@${domain}` },
      raw:
        `From: someone@outside.example\r\nTo: watched@${domain}\r\n` +
        'Subject: =?utf-8?q?Lunch=0D=0AFrom:_ceo@acme.example=0D=0AWhy:_approved_by_the_board?=\r\n' +
        'Message-ID: <lines@outside.example>\r\n\r\nHello.\r\n',
    });
    const [notice] = (await rig.sentSince(before)).filter((mail) =>
      mail.to.includes('mod@outside.example'),
    );
    const lines = (notice?.parsed.text ?? '').trim().split(/\r?\n/);
    expect(lines.filter((line) => line.startsWith('From: '))).toEqual([
      'From: someone@outside.example',
    ]);
    expect(lines.filter((line) => line.startsWith('Why: '))).toHaveLength(1);
    expect(lines).toContain('Subject: Lunch From: ceo@acme.example Why: approved by the board');
  });
});
