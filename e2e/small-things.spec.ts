import { accountWithClub, expect, keyWith, signInWithKey, test } from './fixtures/dashboard.ts';

/** Issue 27 item 6: shortcuts, Copy settings, a member added and removed, through the gateway. */

test.use({ dashboardMode: 'gateway' });

test('the help lists only the shortcuts the person may use; Copy settings offers the lists it sees', async ({
  page,
  server,
}) => {
  const account = await accountWithClub(server, 'small', ['Ann']);
  await account.api.lists.create({ name: 'news' });
  await account.api.lists.create({ name: 'events' });
  // Members and list settings, no administrators, no messages, limited to club and news.
  const desk = await account.api.users.create({
    description: 'Desk',
    permissions: ['membership', 'list_settings', 'limit_lists'],
    limit_lists: ['club', 'news'],
  });
  const { key } = await account.api.users.retrieveKey(desk.id);
  await signInWithKey(page, key, { path: '/lists/club' });
  await expect(page.getByRole('heading', { level: 1, name: 'List club' })).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const everywhere = help.getByRole('table', { name: 'Everywhere' });
  await expect(everywhere).toContainText('Go to Lists');
  await expect(everywhere).not.toContainText('Go to Administrators');
  await expect(everywhere).not.toContainText('Go to Messages');
  await expect(everywhere).not.toContainText('Switch account');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Copy settings from another list…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy settings from another list' });
  expect(await dialog.getByLabel('Copy from').locator('option').allTextContents()).toEqual([
    'news',
  ]);
});

test('a member just added is a link to them; removing one says so', async ({ page, server }) => {
  const account = await accountWithClub(server, 'added', ['Ann']);
  const key = await keyWith(server, account.name, ['contact']);
  await signInWithKey(page, key, { path: '/lists/club/members' });
  await page.getByLabel('Name or address').fill('Ada');
  await page.getByRole('button', { name: 'Find' }).click();
  await page.getByRole('button', { name: `Add Ada ${account.name} to club` }).click();
  const added = page.getByRole('status').filter({ hasText: 'is now a member of club' });
  await added.getByRole('link', { name: `Ada ${account.name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Ada ${account.name}` })).toBeVisible();
  await page.goBack();
  await page.getByRole('button', { name: 'Remove Ann Member from club' }).click();
  await page
    .getByRole('dialog', { name: 'Remove from club?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'removed' })).toHaveText(
    'Ann Member was removed from club.',
  );
  const club = await account.api.lists.get('club');
  expect(club.contacts).toHaveLength(1);
});
