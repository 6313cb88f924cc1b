import {
  accountWithClub,
  expect,
  signInWithKey,
  test,
  watchContactReads,
} from './fixtures/dashboard.ts';
import { expectPhoneFit, PHONE } from './fixtures/phone.ts';

/**
 * Issue 17 item 1: the contacts page filters by list, kept in the URL, with the reference
 * server's `list` extension (one request a page). The spec-only way is in spec-only.spec.ts.
 */

test.describe('at 1440×900', () => {
  test('choose a list: its members only, by the list filter; kept in the URL with the search', async ({
    page,
    server,
  }) => {
    const account = await accountWithClub(server, 'bylist', ['Alan', 'Barbara', 'Edsger']);
    await signInWithKey(page, account.key, { path: '/contacts' });
    const summary = page.getByRole('status').filter({ hasText: /^\d+ contacts?\b/ });
    await expect(summary).toHaveText('5 contacts');

    const reads = watchContactReads(page);
    // The lists are read once the control is used (a keyboard user tabs to it).
    const lists = page.getByLabel('On the list');
    await lists.focus();
    await expect(lists.getByRole('option', { name: 'club' })).toBeAttached();
    expect(reads).toEqual([]);
    await lists.selectOption('club');
    await expect(page).toHaveURL(/\/contacts\?list=club$/);
    await expect(summary).toHaveText('3 contacts on club');
    const table = page.getByRole('table');
    await expect(table.getByRole('link')).toHaveText([
      'Alan Member',
      'Barbara Member',
      'Edsger Member',
    ]);
    // One request for the page: the reference server filters by list (an extension).
    expect(reads).toEqual(['/api/2/contacts/?list=club&page=1&limit=25']);
    await expect(page.getByLabel('Only contacts on no list')).toBeDisabled();

    await page.getByLabel('Search contacts').fill('barbara');
    await expect(page).toHaveURL(/list=club/);
    await expect(page).toHaveURL(/q=barbara/);
    await expect(summary).toHaveText('1 contact on club');

    await lists.selectOption('');
    await expect(page).toHaveURL(/\/contacts\?q=barbara$/);
    await expect(summary).toHaveText('1 contact');

    // The URL alone restores the view (the back button; the phone test opens such a link).
    await page.goBack();
    await expect(lists).toHaveValue('club');
    await expect(page.getByLabel('Search contacts')).toHaveValue('barbara');
    await expect(table.getByRole('link')).toHaveText(['Barbara Member']);
  });
});

test.describe('at 390×844', () => {
  test.use({ viewport: PHONE });

  test('the list filter fits a phone and filters the same way', async ({ page, server }) => {
    const account = await accountWithClub(server, 'bylist', ['Alan', 'Barbara', 'Edsger']);
    await signInWithKey(page, account.key, { path: '/contacts?list=club' });
    await expect(page.getByLabel('On the list')).toHaveValue('club');
    await expect(page.getByRole('status').filter({ hasText: /contacts? on club/ })).toHaveText(
      '3 contacts on club',
    );
    await expect(page.getByRole('table').getByRole('link')).toHaveCount(3);
    await expectPhoneFit(page, 'contacts filtered by a list');
  });
});
