import {
  createAccount,
  createKey,
  apiAs,
  expect,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';

/** Issue 27 item 5: an account's own settings, and the posting tester's account defaults. */

test.use({ dashboardMode: 'gateway' });

test('the account’s superadmin finds its settings, and words for why the server keeps them to operators; the tester says which permission reads the defaults', async ({
  page,
  server,
}) => {
  const account = await createAccount(server, uniqueName('own-settings'));
  const { key } = await createKey(server, { account: account.name });
  await apiAs(server, key).lists.create({ name: 'news' });
  await signInWithKey(page, key, { path: '/accounts' });
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('alert')).toContainText('This server lets only an operator');
  await expect(page.getByRole('button', { name: 'New account' })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await page.getByRole('link', { name: 'news' }).click();
  await page.getByRole('button', { name: 'What would happen to a message? Try one' }).click();
  await expect(
    page.getByText(
      /which you may not read: an account’s settings need the account permission with a global key/,
    ),
  ).toBeVisible();
});

test('an operator’s tester reads the account’s defaults', async ({ page, server }) => {
  const account = await createAccount(server, uniqueName('operator-defaults'));
  const { key } = await createKey(server, { account: account.name });
  await apiAs(server, key).lists.create({ name: 'news' });
  const global = await createKey(server, 'global');
  await apiAs(server, global.key).accounts.update(account.id, { notify_approval: 1 });
  await signInWithKey(page, global.key, { path: `/a/${account.id}/lists/news` });
  await page.getByRole('button', { name: 'What would happen to a message? Try one' }).click();
  await expect(page.getByText('read from the account below')).toBeVisible();
  await expect(page.getByLabel('The account’s default for held messages')).toHaveValue('1');
});
