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

  // SECURITY.md 10: the key lives in memory only, unless the user asks otherwise.
  const stores = await expectNoSecretStored(page, [account.key]);
  expect(stores.sessionStorage).toEqual({});

  await page.reload();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcontacts$/);
});

test('"keep for this tab" survives a reload; signing out forgets the key', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'kept', ['Alan']);
  await signInWithKey(page, account.key, { keep: true });
  await expect(page).toHaveURL(/\/contacts$/);

  // Only sessionStorage holds it, and only because the box was ticked.
  await expectNoSecretStored(page, [account.key], { sessionStorage: false });
  expect(Object.values((await browserStorage(page)).sessionStorage)).toEqual([account.key]);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Alan ${account.name}` })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('You have signed out.');
  expect((await browserStorage(page)).sessionStorage).toEqual({});
  await page.reload();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
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
  await signInWithKey(page, doomed.key, { keep: true });
  await expect(page.getByRole('cell', { name: `Edsger ${account.name}` })).toBeVisible();

  await apiAs(server, account.key).users.delete(doomed.id);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'The API key was refused' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/key-refused$/);
  expect((await browserStorage(page)).sessionStorage).toEqual({});
});

test('a kept key revoked before a reload leads to the "key refused" page', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'reload-revoked', ['Barbara']);
  const doomed = await createKey(server, { account: account.name });
  await signInWithKey(page, doomed.key, { keep: true });
  await apiAs(server, account.key).users.delete(doomed.id);
  await page.reload();
  await expect(
    page.getByRole('heading', { level: 1, name: 'The API key was refused' }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
});
