import type { Page } from '@playwright/test';
import { expectNoAxeViolations, themes, useTheme } from './fixtures/axe.ts';
import {
  apiAs,
  createKey,
  expect,
  reloadAndSignIn,
  signInWithKey,
  test,
} from './fixtures/dashboard.ts';
import { test as gatewayTest } from './fixtures/gateway.ts';
import { accountWithList } from './fixtures/messages.ts';
import { expectPhoneFit, expectTablesAsCards, openMenu, PHONE } from './fixtures/phone.ts';
import { XSS_HTML, trapXss } from './fixtures/xss-corpus.ts';

/**
 * Issue 26 item 4: the dashboard's Audit page, for whoever has the `audit` permission: every
 * change newest first, with the filters of `GET /audit/` in the URL, "Load more" by keyset, each
 * change as a before/after diff (a list's settings especially), by keyboard and screen reader, on
 * a phone; not offered where the server has no audit log.
 */

// Each test arranges an account and 50-odd writes through the API before it signs in.
test.describe.configure({ timeout: 180_000 });

const entries = (page: Page) =>
  page.getByRole('list', { name: /Audit entries|More audit entries/ }).getByRole('article');
const summaries = (page: Page) => entries(page).getByRole('heading', { level: 2 });

async function loggedAccount(server: Parameters<typeof accountWithList>[0]) {
  const account = await accountWithList(server, 'audit');
  await account.api.lists.create({
    name: 'digest',
    message_footer: 'Thanks for reading.\nMeetings on Monday.\nUnsubscribe below.',
  });
  // 52 contacts: more than a page of 50, so the oldest entries need "Load more".
  for (let n = 1; n <= 52; n++)
    await account.api.contacts.create({
      firstname: `Reader${n}`,
      emails: [`reader${n}@${account.name}.example`],
    });
  await account.api.lists.update('digest', {
    message_footer: 'Thanks for reading.\nMeetings on Tuesday.\nUnsubscribe below.',
  });
  await account.api.lists.update('news', {
    subject_prefix: '[news]',
    message_footer: 'Thanks for reading.\nUnsubscribe below.',
    taboo_body: ['casino'],
    description: XSS_HTML,
  });
  return account;
}

test('the Audit page: newest first, a list’s settings as a readable diff, filters in the URL, Load more by keyboard', async ({
  page,
  server,
}) => {
  const account = await loggedAccount(server);
  const trap = trapXss(page);
  await signInWithKey(page, account.key, { path: '/audit' });
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }),
  ).toHaveAttribute('aria-current', 'page');

  // Newest first: the settings changes, then the contacts from the last.
  await expect(summaries(page).first()).toHaveText(/changed the settings of list news$/);
  await expect(summaries(page).nth(2)).toHaveText(/created contact \d+$/);
  const settings = entries(page).first();
  const table = settings.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Field', 'Before', 'After']);
  await expect(table.getByRole('row', { name: /subject_prefix/ }).getByRole('cell')).toHaveText([
    '(empty)',
    '[news]',
  ]);
  await expect(table.getByRole('row', { name: /taboo_body/ })).toContainText('Added: casino.');
  // The footer's lines, removed and added, each said to a screen reader.
  const footer = table.getByRole('row', { name: /message_footer/ });
  await expect(footer.locator('ins')).toHaveText([
    'Added: + Thanks for reading.',
    'Added: + Unsubscribe below.',
  ]);
  await expect(footer.locator('del')).toHaveCount(0);
  // A footer changed: the line removed and the line added, between the lines kept.
  const digest = entries(page)
    .nth(1)
    .getByRole('row', { name: /message_footer/ });
  await expect(entries(page).nth(1).getByRole('heading')).toHaveText(
    /changed the settings of list digest$/,
  );
  await expect(digest.locator('pre')).toHaveText(
    '  Thanks for reading.\nRemoved: − Meetings on Monday.\nAdded: + Meetings on Tuesday.\n  Unsubscribe below.\n',
  );
  // The description is the XSS corpus, shown as text.
  await expect(table.getByRole('row', { name: /description/ })).toContainText('<script>');
  await expect(settings).toContainText('through the API');
  await expect(settings.locator('code').first()).toHaveText('lists.update');

  // A filter goes into the URL and survives a reload.
  await page.getByLabel('Operation').fill('lists.update');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/audit\?operation=lists\.update$/);
  const updates = [/changed the settings of list news$/, /changed the settings of list digest$/];
  await expect(summaries(page)).toHaveText(updates);
  await reloadAndSignIn(page, account.key);
  await expect(page.getByLabel('Operation')).toHaveValue('lists.update');
  await expect(summaries(page)).toHaveText(updates);
  await page.getByLabel('Who').fill('nobody@example.org');
  await page.getByLabel('Who').press('Enter');
  await expect(page).toHaveURL(/actor=nobody%40example\.org/);
  await expect(
    page.getByRole('status').filter({ hasText: 'No entry matches these filters.' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/audit$/);

  // Load more, by keyboard: the first new entry takes the focus, and the count is said.
  await expect(summaries(page)).toHaveCount(50);
  const more = page.getByRole('button', { name: 'Load more' });
  await more.focus();
  await page.keyboard.press('Enter');
  // The 52 contacts, the two lists and their changes, and the key the command line made first.
  await expect(summaries(page)).toHaveCount(57);
  await expect(summaries(page).nth(50)).toBeFocused();
  await expect(
    page.getByRole('status').filter({ hasText: '7 more entries loaded.' }),
  ).toBeAttached();
  await expect(summaries(page).nth(54)).toHaveText(/created list digest$/);
  await expect(summaries(page).nth(55)).toHaveText(/created list news$/);
  await expect(summaries(page).last()).toHaveText(/^The system created administrator \d+$/);
  await expect(entries(page).last()).toContainText('on the command line');
  await expect(more).toHaveCount(0);
  await expect(page.getByText('That is the oldest entry.')).toBeVisible();

  for (const theme of themes) {
    await useTheme(page, theme);
    await expectNoAxeViolations(page, `the Audit page (${theme})`);
  }
  expect(await trap.canarySet()).toBe(false);
  expect([...trap.dialogs, ...trap.pageErrors, ...trap.consoleErrors]).toEqual([]);
});

test('the Audit page at 390×844: no sideways scroll, changes as cards, the menu offers it', async ({
  page,
  server,
}) => {
  const account = await loggedAccount(server);
  await page.setViewportSize(PHONE);
  await signInWithKey(page, account.key, { path: '/contacts' });
  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(summaries(page).first()).toBeVisible();
  await expectPhoneFit(page, 'the Audit page');
  expect(await expectTablesAsCards(page, 'the Audit page')).toBeGreaterThan(0);
});

test('offered only to a sign-in with the audit permission', async ({ page, server }) => {
  const account = await accountWithList(server, 'noaudit');
  const { key } = await createKey(server, { account: account.name });
  const clerk = await apiAs(server, key).users.create({
    description: 'Clerk',
    permissions: ['list', 'contact'],
  });
  const { key: clerkKey } = await apiAs(server, key).users.retrieveKey(clerk.id);
  await signInWithKey(page, clerkKey, { path: '/lists' });
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }),
  ).toHaveCount(0);
  await signInWithKey(page, clerkKey, { path: '/audit' });
  await expect(page.getByRole('alert')).toContainText(
    'Not permitted: the audit log needs the audit permission',
  );
});

gatewayTest(
  'not offered in front of a server without the extension (EXTENSIONS=off)',
  async ({ page, server }) => {
    const account = await accountWithList(server, 'plainaudit');
    await signInWithKey(page, account.key, { path: '/lists' });
    await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }),
    ).toHaveCount(0);
    // The gateway's session survives the navigation: the page itself says what is missing.
    await page.goto('/audit');
    await expect(page.getByText('This server does not offer an audit log')).toBeVisible();
  },
);
