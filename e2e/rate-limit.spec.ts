import {
  accountWithContacts,
  apiAs,
  createAccount,
  createKey,
  expect,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import { useUpAllowance } from './fixtures/rate-limit.ts';

test('over the hourly allowance, a banner says so with the reset time, for that account only', async ({
  page,
  server,
}) => {
  // Spec §8: the allowance is 3 × the address book's maximum size: here 3 × 2 = 6 objects an hour.
  const tiny = await createAccount(server, uniqueName('tiny'), { maxContacts: 2 });
  const { key: tinyKey } = await createKey(server, { account: tiny.name });
  const roomy = await accountWithContacts(server, 'roomy', ['Rita']);
  const api = apiAs(server, tinyKey);
  await api.contacts.create({ firstname: 'Tim', emails: ['tim@tiny.example'] });
  // A minute before the hour's end at least: the banner is checked before the reset.
  const refused = await useUpAllowance(() => api.contacts.list(), 60_000);
  const resetAt = refused.resetAt.toISOString();

  const { key } = await createKey(server, 'global');
  await signInWithKey(page, key, { path: `/a/${tiny.id}/contacts` });
  const banner = page.getByRole('alert').filter({ hasText: 'Rate limit reached' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(
    'The hourly API allowance of 6 objects for this account is used up.',
  );
  await expect(banner.locator('time')).toHaveAttribute('datetime', resetAt ?? '');
  const shown = await page.evaluate(
    (iso) =>
      new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(
        new Date(iso),
      ),
    resetAt ?? '',
  );
  await expect(banner.locator('time')).toHaveText(shown);
  // The page itself says why it is empty.
  await expect(page.getByRole('main').getByRole('alert')).toContainText(
    'the hourly API allowance is used up',
  );

  // Another account of the group is not limited: no banner under its name.
  await page.keyboard.press('s');
  await page.keyboard.type(roomy.name);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('cell', { name: `Rita ${roomy.name}` })).toBeVisible();
  await expect(banner).toHaveCount(0);

  // Back on the limited account, the banner is there again until dismissed.
  await page.goBack();
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
});
