import {
  accountWithContacts,
  apiAs,
  browserStorage,
  createKey,
  expect,
  expectNoSecretStored,
  signInWithKey,
  test,
} from './fixtures/dashboard.ts';

test('an account key signs in and sees its contacts; a reload asks for the key again', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'solo', ['Ada', 'Grace']);
  await signInWithKey(page, account.key, { path: '/lists' });

  // Back where the user was going, in the key's own account (no account in the URL).
  await expect(page).toHaveURL(/\/lists$/);
  await expect(page.getByRole('banner')).toContainText('API key');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Accounts' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Contacts' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('cell', { name: `Ada ${account.name}` })).toBeVisible();
  await expect(table.getByRole('cell', { name: `Grace ${account.name}` })).toBeVisible();

  // SECURITY.md 10: in this public-client mode the key lives in page memory only; there is no
  // way to keep it in the tab's storage (behind the gateway a session outlives reloads instead).
  const stores = await expectNoSecretStored(page, [account.key]);
  expect(stores.sessionStorage).toEqual({});

  await page.reload();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcontacts$/);
  await expect(page.getByLabel('API key', { exact: true })).toHaveAccessibleDescription(
    'The key lives in this page’s memory only: a reload asks for it again.',
  );
  await expect(page.getByRole('checkbox')).toHaveCount(0);
});

test('signing out says so, and nothing of the key is left in the tab', async ({ page, server }) => {
  const account = await accountWithContacts(server, 'leaving', ['Alan']);
  await signInWithKey(page, account.key);
  await expect(page).toHaveURL(/\/contacts$/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('You have signed out.');
  const stores = await expectNoSecretStored(page, [account.key]);
  expect(stores.sessionStorage).toEqual({});
});

test('an unknown key is refused on the form', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('API key', { exact: true }).fill('not-a-key-of-this-server');
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await expect(page.getByRole('alert')).toContainText('The server refused this key');
  await expect(page.getByLabel('API key', { exact: true })).toHaveAttribute('aria-invalid', 'true');
});

test('a key revoked during the session leads to the "key refused" page', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'revoked', ['Edsger']);
  const doomed = await createKey(server, { account: account.name });
  await signInWithKey(page, doomed.key);
  await expect(page.getByRole('cell', { name: `Edsger ${account.name}` })).toBeVisible();

  await apiAs(server, account.key).users.delete(doomed.id);
  // The next request finds it out: the one a click on Lists makes, unless one of the shell's own
  // background reads (the navigation's counts) finds it first and the page has left already.
  const lists = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' });
  await Promise.race([
    lists.click().catch(() => undefined),
    page.waitForURL(/\/auth\/key-refused$/),
  ]);
  await expect(
    page.getByRole('heading', { level: 1, name: 'The API key was refused' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/key-refused$/);
  expect((await browserStorage(page)).sessionStorage).toEqual({});
});
