import type { Page } from '@playwright/test';
import { accountWithClub, expect, signInWithKey, test } from './fixtures/dashboard.ts';
import { PHONE } from './fixtures/phone.ts';

/**
 * Issue 27 item 2: an administrator confined to some lists (spec §2.6 limit_lists) works in them:
 * through the gateway, as `npm start` serves the dashboard.
 */

test.use({ dashboardMode: 'gateway' });

async function confinedKey(prefix: string, server: Parameters<typeof accountWithClub>[0]) {
  // Ada and Grace are on no list; Ann is on club; Bo on news only; Cy on both.
  const account = await accountWithClub(server, prefix, ['Ann']);
  await account.api.lists.create({ name: 'news' });
  const domain = `${account.name}.example`;
  await account.api.contacts.create({
    firstname: 'Bo',
    surname: 'News',
    emails: [`bo@${domain}`],
    lists: ['news'],
  });
  await account.api.contacts.create({
    firstname: 'Cy',
    surname: 'Both',
    emails: [`cy@${domain}`],
    lists: ['club', 'news'],
  });
  const desk = await account.api.users.create({
    description: 'Club desk',
    permissions: ['superadmin', 'limit_lists'],
    limit_lists: ['club'],
  });
  return { account, key: (await account.api.users.retrieveKey(desk.id)).key };
}

async function expectConfinedContacts(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contacts' })
    .click();
  await expect(page).toHaveURL(/\/contacts\?.*list=club/);
  await expect(page.getByText('You are limited to club (limit_lists)')).toBeVisible();
  const names = page.getByRole('table').getByRole('link');
  await expect(names).toHaveText(['Ann Member', 'Cy Both']);
  const filter = page.getByLabel('On the list');
  expect(await filter.locator('option').allTextContents()).toEqual(['club']);
  await expect(page.getByText('Only contacts on no list')).toHaveCount(0);
}

test('a list-limited administrator lands on its list’s members; contacts and export are its members; a refused delete says why', async ({
  page,
  server,
}) => {
  const { key } = await confinedKey('confined', server);
  await signInWithKey(page, key, { path: '/' });
  await expect(page).toHaveURL(/\/lists\/club\/members$/);
  await expectConfinedContacts(page);

  // The export is the members: two rows, not the account's five.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as CSV' }).click();
  await (await download).path();
  await expect(page.getByText('Exported 2 contacts.')).toBeVisible();

  // Cy is also on news, which the key does not see: the server refuses, and the dialog says why.
  await page.getByRole('link', { name: 'Cy Both' }).click();
  await page.getByRole('button', { name: 'Delete the contact' }).click();
  const dialog = page.getByRole('dialog', { name: /^Delete the contact/ });
  await expect(dialog).toContainText('if the contact is also on a list you do not see');
  await dialog.getByRole('button', { name: 'Delete the contact' }).click();
  await expect(dialog.getByRole('alert')).toContainText('this contact is also on others');
});

test('at 390×844 too: lands on its list’s members, and sees only their contacts', async ({
  page,
  server,
}) => {
  await page.setViewportSize(PHONE);
  const { key } = await confinedKey('confined-phone', server);
  await signInWithKey(page, key, { path: '/' });
  await expect(page).toHaveURL(/\/lists\/club\/members$/);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expectConfinedContacts(page);
});
