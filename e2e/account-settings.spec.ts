import { expectNoAxeViolations } from './fixtures/axe.ts';
import {
  createAccount,
  createKey,
  apiAs,
  expect,
  keyWith,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';

/** Issue 27 item 5: an account's own settings, and the posting tester's account defaults. */

test.use({ dashboardMode: 'gateway' });

test('the account’s superadmin finds its settings and saves them; the name stays the operators’; the tester says which permission reads the defaults', async ({
  page,
  server,
}) => {
  const account = await createAccount(server, uniqueName('own-settings'));
  const { key } = await createKey(server, { account: account.name });
  const api = apiAs(server, key);
  await api.lists.create({ name: 'news' });
  await signInWithKey(page, key, { path: '/accounts' });
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('button', { name: 'New account' })).toHaveCount(0);
  // The reference server lets the account's own superadmin read and change its settings
  // (extension OWN_ACCOUNT, issue 27 item 5); its name is an operator's.
  const form = page.getByRole('form', { name: 'Account settings' });
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue(account.name);
  await expect(form.getByLabel('Name', { exact: true })).toHaveAttribute('readonly', '');
  await form.getByLabel('Confirmation subject').fill('Please confirm, neighbour');
  await form
    .getByLabel('Subscriptions (default for lists)', { exact: true })
    .selectOption('open+confirm');
  await expectNoAxeViolations(page, 'the account’s own settings');
  await form.getByRole('button', { name: 'Save the settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect(await api.accounts.get(account.id)).toMatchObject({
    name: account.name,
    confirmation_subject: 'Please confirm, neighbour',
    subscriptions: 'open+confirm',
  });
  // A change not saved: Cancel puts the stored value back, and nothing says "Saved.".
  await form.getByLabel('Confirmation subject').fill('Not this one');
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form.getByLabel('Confirmation subject')).toHaveValue('Please confirm, neighbour');
  // Another account stays out of reach of this key.
  const other = await createAccount(server, uniqueName('not-ours'));
  await expect(api.accounts.get(other.id)).rejects.toMatchObject({ status: 403 });

  // The posting tester reads the account's defaults for whoever may read them.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await page.getByRole('link', { name: 'news' }).click();
  await page.getByRole('button', { name: 'What would happen to a message? Try one' }).click();
  await expect(page.getByText('read from the account below')).toBeVisible();

  // A list manager without general_settings is told which permission would let it.
  const manager = await keyWith(server, account.name, ['list_settings']);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signInWithKey(page, manager, { path: '/lists/news' });
  await page.getByRole('button', { name: 'What would happen to a message? Try one' }).click();
  await expect(
    page.getByText(
      /which you may not read: an account’s settings need the account permission with a global key \(an operator’s, spec §4\.7\), or general_settings on your own account/,
    ),
  ).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Account', exact: true }),
  ).toHaveCount(0);
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
