import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './fixtures/axe.ts';
import { apiAs, createKey, uniqueName } from './fixtures/dashboard.ts';
import { expect, test, type MailSink } from './fixtures/mail.ts';

/**
 * Issue 25 item 8: members join and leave on their own, in Chromium against the real server, its
 * mail read from the SMTP sink it sends to. A stranger joins from the list's public page and
 * confirms from the mailed link; a member leaves with Gmail's one-click POST and the next post
 * skips them.
 */

/** The newest mail the sink took for `address` whose subject matches. */
async function mailTo(sink: MailSink, address: string, subject: RegExp) {
  const find = () =>
    sink.mails.filter((m) => m.to.includes(address) && subject.test(m.parsed.subject ?? '')).at(-1);
  await expect.poll(() => find() !== undefined, { message: `a mail to ${address} like ${String(subject)}` }).toBe(true);
  const mail = find();
  if (!mail) throw new Error('unreachable');
  return mail;
}

/** A person types an address: the page's bot trap refuses a form sent within 2 s of showing it. */
async function typeLikeAPerson(page: Page) {
  await page.waitForTimeout(2_100);
}

async function accountWithList(server: Parameters<typeof createKey>[0], list: Record<string, unknown>) {
  const root = apiAs(server, (await createKey(server, 'global')).key);
  const name = uniqueName('join');
  const domain = `${name}.example`;
  await root.accounts.create({ name, domain });
  const api = apiAs(server, (await createKey(server, { account: name })).key);
  await api.lists.create({ name: 'community', description: 'Neighbours who garden', ...list });
  return { api, address: `community@${domain}`, domain };
}

test('a stranger joins from the list’s page and confirms from the mailed link', async ({ page, server, mailSink }) => {
  const { api, address } = await accountWithList(server, { subscriptions: 'open' });
  await page.goto(`/l/${address}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'community' })).toBeVisible();
  await expect(page.getByText('Neighbours who garden')).toBeVisible();
  await expectNoAxeViolations(page, 'the list’s public page');

  const joiner = 'new.neighbour@example.org';
  await page.getByRole('form', { name: 'Join the list' }).getByLabel('Your email address').fill(joiner);
  await typeLikeAPerson(page);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('We have mailed that address');

  const mail = await mailTo(mailSink, joiner, /^Confirm joining community@/);
  const link = /https?:\/\/\S+\/confirm\/[A-Za-z0-9_-]+/.exec(mail.parsed.text ?? '')?.[0];
  expect(link, mail.parsed.text).toBeDefined();
  // The link's GET shows a button; nothing has changed yet.
  await page.goto(link ?? '');
  expect((await api.contacts.list({ search: joiner })).data).toHaveLength(0);
  await expectNoAxeViolations(page, 'the confirmation page');
  await page.getByRole('button', { name: 'Join the list' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to community' })).toBeVisible();
  const [contact] = (await api.contacts.list({ search: joiner })).data;
  expect(contact?.lists.map((membership) => membership.list)).toEqual(['community']);
  expect(contact?.emails[0]).toMatchObject({ email: joiner, confirmed: true });
  // The link works once.
  await page.goto(link ?? '');
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
});

test('a member leaves with Gmail’s one-click POST, and the next post skips them', async ({ page, request, server, mailSink }) => {
  const { api, address } = await accountWithList(server, {});
  const [stays, leaves] = ['stays@example.org', 'leaves@example.org'];
  for (const email of [stays, leaves]) await api.contacts.create({ emails: [email], lists: ['community'] });
  await api.messages.send({ list: 'community', subject: 'Seed swap on Saturday', content_plain: 'Bring seeds.' });
  const first = await mailTo(mailSink, leaves, /Seed swap/);
  const header = /^List-Unsubscribe: <([^>]+)>/m.exec(first.raw.toString())?.[1] ?? '';
  expect(first.raw.toString()).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
  expect(header).toContain(`/l/${address}/unsubscribe/`);

  // What Gmail sends (RFC 8058 §3.1): a POST with this one field, no cookie, no authorization.
  const left = await request.post(header, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
    maxRedirects: 0,
  });
  expect(left.status()).toBe(200);
  expect(left.headers().location).toBeUndefined();

  await api.messages.send({ list: 'community', subject: 'Compost workshop', content_plain: 'Bring buckets.' });
  await mailTo(mailSink, stays, /Compost workshop/);
  expect(mailSink.mails.filter((m) => m.to.includes(leaves) && /Compost/.test(m.parsed.subject ?? ''))).toEqual([]);

  // The same link in a browser: a page that says there is nothing left to do, at 320 px.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(header);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('the demo footer’s instruction works: a member replies “unsubscribe”, confirms on the mailed page, and is gone', async ({
  page,
  server,
  mailSink,
  sendMail,
}) => {
  const { api, address, domain } = await accountWithList(server, {
    message_footer: 'To leave, reply with "unsubscribe".',
  });
  const member = `reader@${domain}`;
  await api.contacts.create({ emails: [member], lists: ['community'] });
  await api.messages.send({ list: 'community', subject: 'Weekly news', content_plain: 'News.' });
  const post = await mailTo(mailSink, member, /Weekly news/);
  expect(post.parsed.text).toContain('To leave, reply with "unsubscribe".');

  // The member's mail program: a reply with the word above the quoted post, to the list.
  await sendMail({
    from: member,
    to: address,
    subject: `Re: ${post.parsed.subject ?? ''}`,
    text: `unsubscribe\n\nOn Sunday, Community wrote:\n> News.\n> To leave, reply with "unsubscribe".\n`,
  });
  const confirmation = await mailTo(mailSink, member, /^Confirm leaving community@/);
  const link = /https?:\/\/\S+\/confirm\/[A-Za-z0-9_-]+/.exec(confirmation.parsed.text ?? '')?.[0];
  await page.goto(link ?? '');
  await page.getByRole('button', { name: 'Leave the list' }).click();
  await expect(page.getByRole('heading', { name: 'You have left community' })).toBeVisible();
  const [contact] = (await api.contacts.list({ search: member })).data;
  expect(contact?.lists).toEqual([]);
  // The reply went to nobody else: it was a request, not a post.
  expect((await api.messages.list()).data.map((m) => m.subject)).toEqual(['Weekly news']);
});
