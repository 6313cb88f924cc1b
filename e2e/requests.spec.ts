import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from './fixtures/axe.ts';
import { apiAs, createKey, signInWithKey, uniqueName } from './fixtures/dashboard.ts';
import { expect, test, type MailSink } from './fixtures/mail.ts';
import { expectPhoneFit, NARROWEST } from './fixtures/phone.ts';

/**
 * Issue 25 items 5 and 8, issue 27 item 3: the Requests page, in Chromium against the real server.
 * People ask to join and to leave `open+confirm` lists from the lists' public pages and confirm
 * from the mailed links; a moderator then answers by keyboard, with undo and a counted bulk, and a
 * moderator confined to one list sees only that list's requests.
 */

test.describe.configure({ timeout: 180_000 });

const rows = (page: Page) => page.getByRole('table').locator('tbody [data-triage-link]');
const outcome = (page: Page) =>
  page.getByRole('status').filter({ hasText: /^(Approved|Rejected|Discarded|Undone)/ });
const toast = (page: Page) => page.locator('.undo-toast');

/** The WCAG contrast ratio of an element's text colour on its own background colour. */
async function contrastOf(element: Locator) {
  const [text, background] = await element.evaluate((node) => {
    const style = getComputedStyle(node);
    return [style.color, style.backgroundColor];
  });
  const luminance = (rgb = '') => {
    const [r = 0, g = 0, b = 0] = (rgb.match(/[\d.]+/g) ?? []).map(Number).map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** The newest mail the sink took for `address` whose subject matches. */
async function mailTo(sink: MailSink, address: string, subject: RegExp) {
  const find = () =>
    sink.mails.filter((m) => m.to.includes(address) && subject.test(m.parsed.subject ?? '')).at(-1);
  await expect
    .poll(() => find() !== undefined, { message: `a mail to ${address} like ${String(subject)}` })
    .toBe(true);
  return find()?.parsed.text ?? '';
}

/** An account whose lists `community` and `garden` let people join and leave with a moderator. */
async function moderatedAccount(server: Parameters<typeof createKey>[0]) {
  const root = apiAs(server, (await createKey(server, 'global')).key);
  const name = uniqueName('asks');
  const domain = `${name}.example`;
  await root.accounts.create({ name, domain });
  const { key } = await createKey(server, { account: name });
  const api = apiAs(server, key);
  for (const list of ['community', 'garden'])
    await api.lists.create({
      name: list,
      subscriptions: 'open+confirm',
      unsubscriptions: 'open+confirm',
    });
  return { api, key, name, domain };
}

/**
 * What a person does on a list's public page (issue 25 items 2 and 3): asks to join or to leave,
 * then confirms from the mailed link; the request then waits for a moderator.
 */
async function ask(
  page: Page,
  sink: MailSink,
  { list, email, kind }: { list: string; email: string; kind: 'join' | 'leave' },
) {
  await page.goto(`/l/${list}/`);
  const form = page.getByRole('form', {
    name: kind === 'join' ? 'Join the list' : 'Leave the list',
  });
  await form
    .getByLabel(kind === 'join' ? 'Your email address' : 'The address you receive the list at')
    .fill(email);
  // The page's bot trap refuses a form sent within 2 s of showing it (SECURITY.md 43).
  await page.waitForTimeout(2_100);
  await form.getByRole('button', { name: kind === 'join' ? 'Join' : 'Leave', exact: true }).click();
  const text = await mailTo(sink, email, kind === 'join' ? /^Confirm joining/ : /^Confirm leaving/);
  const link = /https?:\/\/\S+\/confirm\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  expect(link, text).toBeDefined();
  await page.goto(link ?? '');
  await page
    .getByRole('button', { name: kind === 'join' ? 'Join the list' : 'Leave the list' })
    .click();
  await expect(
    page.getByRole('heading', { name: 'Your request waits for a moderator' }),
  ).toBeVisible();
}

test('a moderator answers join and leave requests by keyboard: undo, a reason mailed, a counted bulk', async ({
  page,
  server,
  mailSink,
}) => {
  test.setTimeout(240_000);
  const { api, key, name, domain } = await moderatedAccount(server);
  const [ann, bo, cy, dee] = ['ann', 'bo', 'cy', 'dee'].map((who) => `${who}.${name}@example.org`);
  if (!ann || !bo || !cy || !dee) throw new Error('unreachable');
  await api.contacts.create({ emails: [dee], lists: ['community'] });
  await ask(page, mailSink, { list: `community@${domain}`, email: ann, kind: 'join' });
  await ask(page, mailSink, { list: `community@${domain}`, email: bo, kind: 'join' });
  await ask(page, mailSink, { list: `garden@${domain}`, email: cy, kind: 'join' });
  await ask(page, mailSink, { list: `community@${domain}`, email: dee, kind: 'leave' });

  await signInWithKey(page, key, { path: '/' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: /^Requests\W+4 waiting$/ })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('r');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Requests to join and leave' }),
  ).toBeVisible();
  await expect(rows(page)).toHaveText([ann, bo, cy, dee]);
  // The count stays readable on the current page's item (its link text is the accent's colour).
  expect(await contrastOf(nav.locator('[aria-current="page"] .nav-count'))).toBeGreaterThan(4.5);
  // Counts per list and kind, and both kinds in the table.
  const perList = page.getByRole('navigation', { name: 'Requests per list' });
  await expect(perList.getByRole('link')).toHaveText([
    'Every list (4)',
    'community (2 to join, 1 to leave)',
    'garden (1 to join, 0 to leave)',
  ]);
  await page
    .getByRole('navigation', { name: 'Requests by kind' })
    .getByRole('link', { name: 'Leave (1)' })
    .click();
  await expect(rows(page)).toHaveText([dee]);
  await page
    .getByRole('navigation', { name: 'Requests by kind' })
    .getByRole('link', { name: 'Both kinds (4)' })
    .click();
  await expect(rows(page)).toHaveCount(4);
  const deeRow = page.getByRole('table').getByRole('row').filter({ hasText: dee });
  await expect(deeRow).toContainText('Leave');
  await expect(deeRow).toContainText('The list’s page');

  // a: the request leaves the queue at once, the toast offers Undo; u takes it back.
  await page.keyboard.press('j');
  await page.keyboard.press('a');
  await expect(toast(page)).toContainText(
    `Approving ${ann}’s request to join community in 5 seconds.`,
  );
  await expect(rows(page)).toHaveCount(3);
  await page.keyboard.press('u');
  await expect(outcome(page)).toHaveText(`Undone: ${ann}’s request to join community still waits.`);
  await expect(rows(page)).toHaveCount(4);
  await expectNoAxeViolations(page, 'the Requests page');

  // Approved for real once the undo window has passed: Ann is a member.
  await page.getByRole('button', { name: ann }).focus();
  await page.keyboard.press('a');
  await expect(outcome(page)).toHaveText(`Approved ${ann}’s request to join community.`, {
    timeout: 10_000,
  });
  await expect(nav.getByRole('link', { name: /^Requests\W+3 waiting$/ })).toBeVisible();
  const [member] = (await api.contacts.list({ search: ann })).data;
  expect(member?.lists.map((membership) => membership.list)).toEqual(['community']);
  await mailTo(mailSink, ann, /^Your request to join community@.* is approved/);

  // r asks for a reason, which is mailed to the requester with the refusal.
  await page.getByRole('button', { name: bo }).focus();
  await page.keyboard.press('r');
  const reject = page.getByRole('dialog', { name: `Reject “${bo}’s request to join community”?` });
  await expect(reject.getByLabel('Reason (optional, mailed with the refusal)')).toBeFocused();
  await page.keyboard.type('Members only: ask at the shop');
  await page.keyboard.press('Enter');
  await expect(toast(page)).toContainText(`Rejecting ${bo}’s request`);
  await expect(outcome(page)).toHaveText(`Rejected ${bo}’s request to join community.`, {
    timeout: 10_000,
  });
  expect(await mailTo(mailSink, bo, /is declined$/)).toContain('Members only: ask at the shop');
  expect((await api.contacts.list({ search: bo })).data).toEqual([]);

  // x selects; a on a selection names its count first, then acts on both kinds at once.
  await page.getByRole('button', { name: cy }).focus();
  await page.keyboard.press('x');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await page.keyboard.press('a');
  const confirm = page.getByRole('dialog', { name: 'Approve 2 requests?' });
  await expect(confirm).toContainText('Each address joins or leaves its list');
  await confirm.getByRole('button', { name: 'Approve the 2 requests' }).click();
  await expect(outcome(page)).toHaveText('Approved 2 requests.', { timeout: 10_000 });
  await expect(page.getByText('No request waits.')).toBeVisible();
  await expect(nav.getByRole('link', { name: /^Requests\W+0 waiting$/ })).toBeVisible();
  const [left] = (await api.contacts.list({ search: dee })).data;
  expect(left?.lists).toEqual([]);
  const [joined] = (await api.contacts.list({ search: cy })).data;
  expect(joined?.lists.map((membership) => membership.list)).toEqual(['garden']);
});

test('a moderator confined to one list sees and answers only its requests, at 320 px; one another moderator answered first is refused, and said so', async ({
  page,
  server,
  mailSink,
}) => {
  const { api, name, domain } = await moderatedAccount(server);
  const [eve, fay, gil] = ['eve', 'fay', 'gil'].map((who) => `${who}.${name}@example.org`);
  if (!eve || !fay || !gil) throw new Error('unreachable');
  await ask(page, mailSink, { list: `community@${domain}`, email: eve, kind: 'join' });
  await ask(page, mailSink, { list: `garden@${domain}`, email: fay, kind: 'join' });
  await ask(page, mailSink, { list: `garden@${domain}`, email: gil, kind: 'join' });
  const desk = await api.users.create({
    description: 'Garden desk',
    permissions: ['membership', 'limit_lists'],
    limit_lists: ['garden'],
  });
  const { key } = await api.users.retrieveKey(desk.id);

  await page.setViewportSize(NARROWEST);
  await signInWithKey(page, key, { path: '/requests' });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Requests to join and leave' }),
  ).toBeVisible();
  await expect(rows(page)).toHaveText([fay, gil]);
  await expect(
    page.getByRole('navigation', { name: 'Requests per list' }).getByRole('link'),
  ).toHaveText(['Every list (2)', 'garden (2 to join, 0 to leave)']);
  await expectPhoneFit(page, 'the Requests page at 320 px');
  await expectNoAxeViolations(page, 'the Requests page at 320 px');

  await page.keyboard.press('j');
  await page.keyboard.press('d');
  await expect(toast(page)).toBeInViewport();
  await expect(toast(page)).toContainText(`Discarding ${fay}’s request to join garden`);
  await expectPhoneFit(page, 'the Requests page with its toast at 320 px');
  await expect(outcome(page)).toHaveText(`Discarded ${fay}’s request to join garden.`, {
    timeout: 10_000,
  });

  // Another moderator answers Gil's request while this page shows it: the approval is refused,
  // nothing changes, the page says so and reads the queue again.
  const waiting = await api.call('requests.list', { query: {} });
  const gils = waiting.data.find((request) => request.address === gil);
  await api.call('requests.discard', { params: { id: gils?.id ?? 0 } });
  await page.getByRole('button', { name: gil }).focus();
  await page.keyboard.press('a');
  await expect(page.getByText('Nothing was changed: the server refused.')).toBeVisible({
    timeout: 10_000,
  });
  await expect(page.getByText('No request waits.')).toBeVisible();
  expect((await api.contacts.list({ search: gil })).data).toEqual([]);
  // Eve's request, on another list, is still there for its own moderators.
  const left = await api.call('requests.list', { query: {} });
  expect(left.data.map((request) => request.address)).toEqual([eve]);
});
