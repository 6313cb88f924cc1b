import type { Page } from '@playwright/test';
import { expect, signInWithKey, test } from './fixtures/dashboard.ts';
import { expectNoAxeViolations, themes, useTheme } from './fixtures/axe.ts';
import { holdMessages } from './fixtures/held.ts';
import { accountWithList } from './fixtures/messages.ts';
import { XSS_HTML, trapXss } from './fixtures/xss-corpus.ts';

/** Issue 18 item 3: the Held page for moderators. */

// Each test arranges an account, two lists and six held messages through the CLI and the
// database before it signs in: time for a loaded machine.
test.describe.configure({ timeout: 180_000 });

const table = (page: Page) => page.getByRole('table');
const subjects = (page: Page) => table(page).locator('tbody [data-triage-link]');
const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /^(Approved|Rejected|Discarded)/ });

async function heldAccount(server: Parameters<typeof holdMessages>[0], prefix: string) {
  const account = await accountWithList(server, prefix);
  await account.api.lists.create({ name: 'events' });
  const tag = account.name;
  await holdMessages(server, account.id, [
    {
      list: 'news',
      tag,
      subject: 'One for news',
      html: `<p style="color: rgb(200, 0, 0)">Styled held text</p>${XSS_HTML}`,
    },
    { list: 'news', tag, subject: 'Taboo two', rule: 'taboo-body' },
    { list: 'events', tag, subject: 'Stranger three', rule: 'not-permitted' },
    { list: 'news', tag, subject: 'Bulk four' },
    { list: 'events', tag, subject: 'Bulk five' },
    { list: 'news', tag, subject: 'Last six' },
  ]);
  return account;
}

test('held messages: counts per list, reasons, the sanitized frame; approved, rejected and discarded with the keyboard, and in bulk', async ({
  page,
  server,
}) => {
  // Many steps, each a request.
  test.setTimeout(240_000);
  const account = await heldAccount(server, 'held');
  const trap = trapXss(page);
  await signInWithKey(page, account.key, { path: '/held' });
  await expect(page.getByRole('heading', { level: 1, name: 'Held messages' })).toBeVisible();
  const perList = page.getByRole('navigation', { name: 'Held messages per list' });
  await expect(perList.getByRole('link')).toHaveText(['Every list (6)', 'events (2)', 'news (4)']);
  await expect(subjects(page)).toHaveText([
    'One for news',
    'Taboo two',
    'Stranger three',
    'Bulk four',
    'Bulk five',
    'Last six',
  ]);
  await expect(table(page)).toContainText('The body matches taboo_body[0].');
  await expect(table(page)).toContainText('The sender is not a member of the list.');

  // j: the first message, its reasons and its content in the sanitized frame.
  await page.keyboard.press('j');
  await expect(subjects(page).first()).toBeFocused();
  const preview = page.getByRole('region', { name: 'One for news' });
  await expect(preview).toContainText('The list holds every message (moderate 1).');
  const frame = page.frameLocator('iframe[title="The held message as HTML"]');
  await expect(frame.getByText('Styled held text')).toBeVisible();
  await expect
    .poll(() => frame.getByText('Styled held text').evaluate((p) => getComputedStyle(p).color))
    .toBe('rgb(200, 0, 0)');
  await expect(frame.locator('script, iframe, object, embed, [onerror], [onload]')).toHaveCount(0);

  // a approves: gone from the queue at once, in the archive.
  await page.keyboard.press('a');
  await expect(status(page)).toHaveText('Approved “One for news”.');
  await expect(subjects(page)).toHaveCount(5);
  await expect(subjects(page).first()).toBeFocused();
  await expect(perList.getByRole('link', { name: 'news (3)' })).toBeVisible();
  await expect
    .poll(async () => (await account.api.messages.list()).data.map((m) => m.subject))
    .toContain('One for news');

  // r rejects, with a reason asked for.
  await page.keyboard.press('r');
  const reject = page.getByRole('dialog', { name: 'Reject “Taboo two”?' });
  await expect(reject).toBeVisible();
  await expectNoAxeViolations(page, 'the reject dialog');
  await page.keyboard.type('Off topic');
  await page.keyboard.press('Enter');
  await expect(reject).toBeHidden();
  await expect(status(page)).toHaveText('Rejected “Taboo two”.');
  await expect(subjects(page).first()).toHaveText('Stranger three');
  await expect(subjects(page).first()).toBeFocused();

  // d discards.
  await page.keyboard.press('d');
  await expect(status(page)).toHaveText('Discarded “Stranger three”.');
  await expect(subjects(page)).toHaveText(['Bulk four', 'Bulk five', 'Last six']);

  // x selects two; a approves the selection in one request.
  await page.keyboard.press('x');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await expect(page.getByRole('button', { name: 'Approve selected (2)' })).toBeEnabled();
  const bulk = page.waitForRequest((request) => request.url().includes('/held/bulk/'));
  await page.keyboard.press('a');
  // A bulk action says how many first (issue 27 item 3); Enter confirms.
  await expect(page.getByRole('dialog', { name: 'Approve 2 messages?' })).toBeVisible();
  await page.keyboard.press('Enter');
  expect((await bulk).postDataJSON()).toMatchObject({ action: 'approve' });
  await expect(status(page)).toHaveText('Approved 2 messages.');
  await expect(subjects(page)).toHaveText(['Last six']);

  // The help lists the page's keys.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  for (const words of ['Next held message', 'Approve', 'Reject (asks for a reason)', 'Discard']) {
    await expect(help.getByRole('table', { name: 'On this page' })).toContainText(words);
  }
  await page.keyboard.press('Escape');

  // The last one with the buttons.
  await page.getByRole('button', { name: 'Last six' }).click();
  await page
    .getByRole('group', { name: 'This message' })
    .getByRole('button', { name: 'Discard' })
    .click();
  await expect(page.getByText('No message is held.')).toBeVisible();
  await expect(perList.getByRole('link')).toHaveText(['Every list (0)']);
  await expect(status(page)).toHaveText('Discarded “Last six”.');

  const archive = (await account.api.messages.list()).data.map((m) => m.subject).sort();
  expect(archive).toEqual(['Bulk five', 'Bulk four', 'One for news']);
  expect((await account.api.held.list()).count).toBe(0);
  expect(trap.dialogs).toEqual([]);
  expect(await trap.canarySet()).toBe(false);
});

test('a refused action is shown and the message comes back', async ({ page, server }) => {
  const account = await heldAccount(server, 'refused');
  await signInWithKey(page, account.key, { path: '/held?list=events' });
  await expect(subjects(page)).toHaveText(['Stranger three', 'Bulk five']);
  // Another moderator settles it meanwhile.
  const [first] = (await account.api.held.list({ list: 'events' })).data;
  await account.api.held.discard(first?.id ?? 0);
  await page.keyboard.press('j');
  await page.keyboard.press('a');
  await expect(page.getByText('Nothing was changed: the server refused.')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Not found');
  // Read again: the queue is what the server holds.
  await expect(subjects(page)).toHaveText(['Bulk five']);
});

for (const theme of themes) {
  test(`the Held page has zero axe violations in the ${theme} theme`, async ({ page, server }) => {
    const account = await heldAccount(server, `held-axe-${theme}`);
    await page.goto('/sign-in');
    await useTheme(page, theme);
    await signInWithKey(page, account.key, { path: '/held' });
    await page.getByRole('button', { name: 'Taboo two' }).click();
    const preview = page.getByRole('region', { name: 'Taboo two' });
    await expect(preview).toBeVisible();
    // The tap brought the message into view; its content settles before the next tap.
    await expect(preview.locator('.message-frame, .message-plain')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select “Bulk four”' }).check();
    await expectNoAxeViolations(page, `the Held page (${theme})`);
  });
}

test('at 390×844 the Held page reads as cards and needs no sideways scrolling', async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const account = await heldAccount(server, 'held-phone');
  await signInWithKey(page, account.key, { path: '/held' });
  await expect(subjects(page)).toHaveCount(6);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'page-level sideways scroll').toBeLessThanOrEqual(0);
  await page.keyboard.press('j');
  await page.keyboard.press('a');
  await expect(status(page)).toHaveText('Approved “One for news”.');
  // A tapped subject brings the message's actions into view, below every card as they are.
  await subjects(page).first().click();
  const approve = page
    .getByRole('group', { name: 'This message' })
    .getByRole('button', { name: 'Approve' });
  await expect(approve).toBeInViewport();
  await expectNoAxeViolations(page, 'the Held page at 390×844');
});
