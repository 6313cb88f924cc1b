import type { Page } from '@playwright/test';
import { expect, signInWithKey, test } from './fixtures/dashboard.ts';
import { expectNoAxeViolations } from './fixtures/axe.ts';
import { holdMessages } from './fixtures/held.ts';
import { accountWithList } from './fixtures/messages.ts';
import { PHONE } from './fixtures/phone.ts';

/** Issue 27 item 3: moderation you cannot regret, through the gateway as `npm start` serves it. */

test.use({ dashboardMode: 'gateway' });
test.describe.configure({ timeout: 180_000 });

const subjects = (page: Page) => page.getByRole('table').locator('tbody [data-triage-link]');
const outcome = (page: Page) =>
  page.getByRole('status').filter({ hasText: /^(Approved|Rejected|Discarded|Undone)/ });
const toast = (page: Page) => page.locator('.undo-toast');

async function heldAccount(server: Parameters<typeof holdMessages>[0], prefix: string) {
  const account = await accountWithList(server, prefix);
  const tag = account.name;
  await holdMessages(server, account.id, [
    { list: 'news', tag, subject: 'First held', from: `ann@${tag}.example` },
    { list: 'news', tag, subject: 'Second held' },
    { list: 'news', tag, subject: 'Third held' },
    { list: 'news', tag, subject: 'Fourth held' },
  ]);
  return account;
}

const heldCount = async (account: Awaited<ReturnType<typeof heldAccount>>) =>
  (await account.api.held.list()).count;

test('every action waits with Undo (and u); the open message stays beside the queue; the sender rule is shown as a change; Held counts', async ({
  page,
  server,
}) => {
  test.setTimeout(240_000);
  const account = await heldAccount(server, 'undo');
  await signInWithKey(page, account.key, { path: '/held' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: /^Held\W+4 waiting$/ })).toBeVisible();
  await expect(subjects(page)).toHaveCount(4);

  // a: the message leaves the queue at once, the toast offers Undo; u takes it back.
  await page.keyboard.press('j');
  await page.keyboard.press('a');
  await expect(toast(page)).toContainText('Approving “First held” in 5 seconds.');
  await expect(subjects(page)).toHaveCount(3);
  await page.keyboard.press('u');
  await expect(outcome(page)).toHaveText('Undone: “First held” stays held.');
  await expect(subjects(page)).toHaveCount(4);
  // The Undo button does the same for a discard.
  await page.keyboard.press('j');
  await page.keyboard.press('d');
  await expect(toast(page)).toContainText('Discarding');
  await toast(page).getByRole('button', { name: 'Undo' }).click();
  await expect(subjects(page)).toHaveCount(4);
  // Past the undo window nothing was sent.
  await page.waitForTimeout(6_000);
  expect(await heldCount(account)).toBe(4);

  // Side by side at desktop width: j and k change the open message, which stays in view.
  await page.getByRole('button', { name: 'First held' }).focus();
  for (const step of ['j', 'j', 'k']) await page.keyboard.press(step);
  const open = page.getByRole('region', { name: 'Second held' });
  await expect(open).toBeInViewport();
  const queueBox = await page.getByRole('table').boundingBox();
  const openBox = await open.boundingBox();
  expect(openBox?.x ?? 0).toBeGreaterThan((queueBox?.x ?? 0) + (queueBox?.width ?? 0) - 1);
  // Date, To, every header and the source as received, on demand.
  await expect(open.getByText('Date')).toBeVisible();
  await expect(open.getByText('To', { exact: true })).toBeVisible();
  await open.getByText(/^All headers/).click();
  await expect(open.locator('.held-headers-text')).toContainText('Subject: Second held');
  await open.getByText('Source as received').click();
  await expect(open.locator('.held-headers-text').last()).toContainText(/^Subject: Second held$/m);
  await expectNoAxeViolations(page, 'the Held page with its toast and open headers');

  // Approve the first for real; then the sender rule, shown as a change before saving.
  await page.getByRole('button', { name: 'First held' }).focus();
  await page.keyboard.press('a');
  await expect(outcome(page)).toHaveText('Approved “First held”.');
  await expect(nav.getByRole('link', { name: /^Held\W+3 waiting$/ })).toBeVisible();
  const rule = page.getByRole('group', { name: 'From now on, for this sender' });
  await expect(rule).toContainText(`ann@${account.name}.example on news`);
  await expect(rule).toContainText('No “always discard”');
  await rule.getByRole('button', { name: 'Always reject' }).click();
  const dialog = page.getByRole('dialog', { name: /^Always reject ann@/ });
  await expect(dialog.getByRole('row', { name: /restrict_post_banned_emails/ })).toContainText(
    `ann@${account.name}.example`,
  );
  await expectNoAxeViolations(page, 'the sender rule dialog');
  await dialog.getByRole('button', { name: 'Save the change' }).click();
  await expect(dialog.getByRole('status')).toHaveText(/Saved/);
  expect((await account.api.lists.get('news')).restrict_post_banned_emails).toEqual([
    `ann@${account.name}.example`,
  ]);
  await dialog.getByRole('button', { name: 'Done' }).click();

  // A bulk action names its count first.
  await page.getByRole('checkbox', { name: 'Select “Second held”' }).check();
  await page.getByRole('checkbox', { name: 'Select “Third held”' }).check();
  await page.getByRole('button', { name: 'Discard selected' }).click();
  const confirm = page.getByRole('dialog', { name: 'Discard 2 messages?' });
  await confirm.getByRole('button', { name: 'Discard the 2 messages' }).click();
  await expect(outcome(page)).toHaveText('Discarded 2 messages.');
  await expect.poll(() => heldCount(account)).toBe(1);
});

test('an action still waiting is sent when the page is left, and when the tab closes', async ({
  page,
  server,
  context,
}) => {
  const account = await heldAccount(server, 'undo-leave');
  await signInWithKey(page, account.key, { path: '/held' });
  await expect(subjects(page)).toHaveCount(4);
  // Left for another page of the dashboard: sent at once, not dropped.
  await page.keyboard.press('j');
  await page.keyboard.press('d');
  await expect(toast(page)).toContainText('Discarding “First held”');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await expect.poll(() => heldCount(account), { timeout: 4_000 }).toBe(3);

  // The tab closed within the undo window: the keepalive request still reaches the server.
  const other = await context.newPage();
  await other.goto('/held');
  await expect(subjects(other)).toHaveCount(3);
  await other.keyboard.press('j');
  await other.keyboard.press('a');
  await expect(toast(other)).toContainText('Approving “Second held”');
  await other.close();
  await expect.poll(() => heldCount(account), { timeout: 4_000 }).toBe(2);
  expect((await account.api.messages.list()).data.map((m) => m.subject)).toContain('Second held');
});

test('at 390×844: Undo, the bulk count and the open message scrolled into view', async ({
  page,
  server,
}) => {
  await page.setViewportSize(PHONE);
  const account = await heldAccount(server, 'undo-phone');
  await signInWithKey(page, account.key, { path: '/held' });
  await expect(subjects(page)).toHaveCount(4);
  // j opens the next message and brings it into view (below every card).
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page.getByRole('region', { name: 'Second held' })).toBeInViewport();
  await page.keyboard.press('a');
  await expect(toast(page)).toBeInViewport();
  await toast(page).getByRole('button', { name: 'Undo' }).click();
  await expect(subjects(page)).toHaveCount(4);
  await page.getByRole('checkbox', { name: 'Select “First held”' }).check();
  await page.getByRole('checkbox', { name: 'Select “Fourth held”' }).check();
  await page.getByRole('button', { name: 'Approve selected (2)' }).click();
  await expect(page.getByRole('dialog', { name: 'Approve 2 messages?' })).toBeVisible();
  await expectNoAxeViolations(page, 'the bulk confirmation at 390×844');
  await page.getByRole('button', { name: 'Approve the 2 messages' }).click();
  await expect(outcome(page)).toHaveText('Approved 2 messages.');
  expect(await heldCount(account)).toBe(2);
});
