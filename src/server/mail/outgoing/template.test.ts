import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { LIST_DEFAULTS } from '../../repositories/lists.mapper.ts';
import type { MailingList, OutgoingPost } from './draft.ts';
import { personalParts } from './personal.ts';
import { prefixed, truncateBytes } from './steps.ts';
import { buildPostTemplate, personalize } from './template.ts';

const list = (settings: Partial<MailingList['settings']> = {}): MailingList => ({
  id: 7,
  name: 'news',
  address: 'news@lists.example',
  settings: { ...LIST_DEFAULTS, ...settings },
});

const links = (who: string) => ({
  oneClick: `https://lists.test/l/news@lists.example/unsubscribe/${who}-leave`,
  memberPage: `https://lists.test/l/news@lists.example/member/${who}-page`,
});

/** One member's copy, as the outbox worker makes it. */
async function renderPost(
  mailingList: MailingList,
  post: OutgoingPost,
  who = 'ann',
  canLeave = true,
): Promise<Buffer> {
  const template = await buildPostTemplate(mailingList, post, { now: new Date(0), canLeave });
  return personalize(template, personalParts(mailingList, canLeave ? links(who) : { ...links(who), oneClick: null }));
}

const post = {
  subject: 'Hello',
  fromPhrase: 'Ann',
  fromAddress: 'ann@example.org',
  messageId: '<m1@example.org>',
  contentPlain: 'Body text.',
  contentHtml: '<html><body><p>Body text.</p></body></html>',
};

const withAttachment = Buffer.from(
  [
    'From: ann@example.org',
    'To: news@lists.example',
    'Subject: Hello',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'Body text.',
    '--b',
    'Content-Type: application/octet-stream; name="data.bin"',
    'Content-Disposition: attachment; filename="data.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('attached bytes').toString('base64'),
    '--b--',
    '',
  ].join('\r\n'),
);

/** Spec §2.4 settings on the way out, and SECURITY.md 37 (no header injection). */
describe('a member’s copy of a post (issue 25: built once, filled per member)', () => {
  it('adds the prefix once, the fronter and footer in both parts, reply_to and the list headers', async () => {
    const raw = await renderPost(
      list({
        subject_prefix: '[news]',
        message_fronter: 'FRONT',
        message_footer: 'FOOT',
        message_footer_html: '<p>HTML FOOT</p>',
        reply_to: 'board@example.org',
      }),
      post,
    );
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe('[news] Hello');
    expect(mail.text).toMatch(/^FRONT\n\nBody text\.\n\nFOOT\n\n-- \nYou receive this as a member of news@lists\.example\./);
    expect(mail.html).toMatch(
      /<body><p>FRONT<\/p><p>Body text\.<\/p><p>HTML FOOT<\/p><hr><p style="font-size:small">You receive this .*member\/ann-page.*<\/p><\/body>/,
    );
    expect(mail.replyTo?.text).toBe('board@example.org');
    expect(mail.messageId).toBe('<m1@example.org>');
    expect(raw.toString()).toMatch(
      /^List-Unsubscribe: <https:\/\/lists\.test\/l\/news@lists\.example\/unsubscribe\/ann-leave>, <mailto:news-leave@lists\.example\?subject=unsubscribe>\r$/m,
    );
    expect(raw.toString()).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    expect(prefixed('Re: [news] Hello', '[news]')).toBe('Re: [news] Hello');
  });

  it('truncates the text at `truncate` bytes, never inside a character, and rebuilds the HTML from it', async () => {
    expect(truncateBytes('héllo', 2)).toEqual({ text: 'h', cut: true });
    const mail = await simpleParser(await renderPost(list({ truncate: 4 }), post));
    expect(mail.text?.split('\n\n-- ')[0]).toBe('Body');
    expect(mail.html).not.toContain('text.');
  });

  it('keeps attachments, or strips them with strip_attachments', async () => {
    const kept = await simpleParser(await renderPost(list(), { ...post, source: withAttachment }));
    expect(kept.attachments.map((a) => a.filename)).toEqual(['data.bin']);
    const stripped = await simpleParser(
      await renderPost(list({ strip_attachments: true }), { ...post, source: withAttachment }),
    );
    expect(stripped.attachments).toEqual([]);
  });

  it('lets no line break from a setting or a message become a header', async () => {
    const raw = await renderPost(
      list({
        subject_prefix: '[x]\r\nBcc: victim@example.org',
        reply_to: 'a@example.org\r\nX-Evil: 1',
      }),
      {
        ...post,
        subject: 'Hi\r\nX-Injected: yes',
        fromPhrase: 'Ann\nX-Other: 1',
      },
    );
    const head = raw.toString().split('\r\n\r\n')[0] ?? '';
    expect(head).not.toMatch(/^(Bcc|X-Injected|X-Evil|X-Other):/im);
  });

  it('gives each member their own links and nothing of another member’s, around one shared template', async () => {
    const mailingList = list({ message_footer: 'FOOT' });
    const long = { ...post, contentPlain: `Ünïcode ${'word '.repeat(400)}`, contentHtml: '' };
    const template = await buildPostTemplate(mailingList, { ...long, source: withAttachment }, { now: new Date(0), canLeave: true });
    const [ann, bob] = await Promise.all(
      ['ann', 'bob'].map((who) => simpleParser(personalize(template, personalParts(mailingList, links(who))))),
    );
    expect(ann?.text).toContain('member/ann-page');
    expect(ann?.text).not.toContain('bob');
    expect(bob?.text).toContain('member/bob-page');
    expect(String(bob?.headerLines.find((h) => h.key === 'list-unsubscribe')?.line)).toContain('bob-leave');
    // The shared part is decoded whole: a long line of non-ASCII text crosses the joins intact.
    expect(ann?.text?.startsWith(`Ünïcode ${'word '.repeat(400).trimEnd()}`)).toBe(true);
    expect(ann?.attachments.map((a) => a.content.toString())).toEqual(['attached bytes']);
  });

  it('offers no one-click header when members may not leave by themselves (spec §2.4 unsubscriptions closed)', async () => {
    const raw = (await renderPost(list(), post, 'ann', false)).toString();
    expect(raw).not.toMatch(/^List-Unsubscribe-Post:/m);
    expect(raw).toMatch(/^List-Unsubscribe: <mailto:news-leave@lists\.example\?subject=unsubscribe>\r$/m);
  });
});
