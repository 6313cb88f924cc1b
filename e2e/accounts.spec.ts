import {
  accountWithContacts,
  createKey,
  expect,
  signInWithKey,
  test,
} from './fixtures/dashboard.ts';

test("a global key switches accounts and sees each account's own data under its name", async ({
  page,
  server,
}) => {
  const alpha = await accountWithContacts(server, 'alpha', ['Ada']);
  const beta = await accountWithContacts(server, 'beta', ['Brian']);
  const { key } = await createKey(server, 'global');
  // The account is in the URL; the header names it.
  await signInWithKey(page, key, { path: `/a/${alpha.id}/contacts` });
  await expect(page).toHaveURL(new RegExp(`/a/${alpha.id}/contacts$`));
  const switcher = page.getByRole('button', { name: /^Account/ });
  await expect(switcher).toContainText(alpha.name);
  await expect(page.getByRole('cell', { name: `Ada ${alpha.name}` })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Global API key');

  // Keyboard only: open the switcher, search, arrow to the result, open it.
  await page.keyboard.press('s');
  const dialog = page.getByRole('dialog', { name: 'Switch account' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Search accounts')).toBeFocused();
  await page.keyboard.type(beta.name);
  await expect(dialog.getByRole('link')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('link', { name: beta.name })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/a/${beta.id}/contacts$`));
  await expect(switcher).toContainText(beta.name);
  await expect(page.getByRole('cell', { name: `Brian ${beta.name}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Ada ${alpha.name}` })).toHaveCount(0);

  // Switching keeps the section; the search's Enter opens the first match.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${beta.id}/lists$`));
  await switcher.click();
  await page.keyboard.type(alpha.name);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/a/${alpha.id}/lists$`));
  await expect(switcher).toContainText(alpha.name);

  // Back to beta's contacts from the cache: still beta's, never alpha's.
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/a/${beta.id}/contacts$`));
  await expect(switcher).toContainText(beta.name);
  await expect(page.getByRole('cell', { name: `Brian ${beta.name}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Ada ${alpha.name}` })).toHaveCount(0);
});

test('every request of a global key carries the account of the URL', async ({ page, server }) => {
  const alpha = await accountWithContacts(server, 'carry', ['Carl']);
  const { key } = await createKey(server, 'global');
  const apiRequests: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/2/')) apiRequests.push(url);
  });
  await signInWithKey(page, key, { path: `/a/${alpha.id}/contacts` });
  await expect(page.getByRole('cell', { name: `Carl ${alpha.name}` })).toBeVisible();
  for (const section of ['Lists', 'Messages', 'Administrators']) {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: section })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: section })).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
  }
  // Who is calling (the caller extension) is the same in every account: read once, without one.
  const caller = apiRequests.filter((url) => url.pathname === '/api/2/caller/');
  expect(caller.map((url) => url.search)).toEqual(['']);
  const accountScoped = apiRequests.filter(
    (url) => !url.pathname.startsWith('/api/2/accounts/') && url.pathname !== '/api/2/caller/',
  );
  expect(accountScoped.map((url) => url.pathname).sort()).toEqual([
    '/api/2/contacts/',
    // The navigation's Custom fields item, offered where the server has them (issue 27 item 1).
    '/api/2/fields/',
    // The navigation's Held count (issue 27 item 3).
    '/api/2/held/',
    '/api/2/lists/',
    '/api/2/messages/',
    // The navigation's Requests count, loaded with Held's (issue 25 item 5).
    '/api/2/requests/',
    '/api/2/users/',
  ]);
  for (const url of accountScoped)
    expect(url.searchParams.get('account_id')).toBe(String(alpha.id));
});

test('the accounts page lists the group and opens an account', async ({ page, server }) => {
  const gamma = await accountWithContacts(server, 'gamma', ['Gina']);
  const { key } = await createKey(server, 'global');
  await signInWithKey(page, key);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Accounts' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await page.getByRole('link', { name: gamma.name }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${gamma.id}/contacts$`));
  await expect(page.getByRole('cell', { name: `Gina ${gamma.name}` })).toBeVisible();
});

test('an account key never sees account URLs or the accounts page', async ({ page, server }) => {
  const own = await accountWithContacts(server, 'own', ['Olga']);
  const other = await accountWithContacts(server, 'other', ['Otto']);
  // Each address opened asks for the key again (page memory only, SECURITY.md 10).
  await signInWithKey(page, own.key, { path: `/a/${other.id}/contacts` });
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('cell', { name: `Olga ${own.name}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Otto ${other.name}` })).toHaveCount(0);
  // Its superadmin finds the account's own settings instead (issue 27 item 5), its own only.
  await signInWithKey(page, own.key, { path: '/accounts' });
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  await expect(
    page.getByRole('form', { name: 'Account settings' }).getByLabel('Name', { exact: true }),
  ).toHaveValue(own.name);
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Account', exact: true }),
  ).toHaveAttribute('aria-current', 'page');
});

test('Enter typed in the switcher before the accounts arrive opens the first match once they do', async ({
  page,
  server,
}) => {
  const gamma = await accountWithContacts(server, 'gamma', ['Gina']);
  const delta = await accountWithContacts(server, 'delta', ['Dora']);
  const { key } = await createKey(server, 'global');
  // The group's accounts take a while (a phone's connection; the switcher loads after the shell).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/2/accounts/?*', async (route) => {
    await held;
    await route.continue();
  });
  await signInWithKey(page, key, { path: `/a/${gamma.id}/contacts` });
  await expect(page.getByRole('cell', { name: `Gina ${gamma.name}` })).toBeVisible();
  await page.keyboard.press('s');
  const dialog = page.getByRole('dialog', { name: 'Switch account' });
  await expect(dialog.getByLabel('Search accounts')).toBeFocused();
  await expect(dialog.getByRole('status')).toHaveText('Loading accounts…');
  await page.keyboard.type(delta.name);
  await page.keyboard.press('Enter');
  release();
  await expect(page).toHaveURL(new RegExp(`/a/${delta.id}/contacts$`));
  await expect(page.getByRole('cell', { name: `Dora ${delta.name}` })).toBeVisible();
});
