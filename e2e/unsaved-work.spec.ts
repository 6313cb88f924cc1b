import {
  accountWithContacts,
  apiAs,
  createKey,
  expect,
  signInWithKey,
  test,
} from './fixtures/dashboard.ts';

/**
 * Issue 17 item 3, nothing typed is lost: the contact page, a new contact and a pasted import ask
 * before leaving; an edited dialog asks before Escape closes it; controls that save at once say
 * "Saved" each time.
 */
test('typed work asks before it is left behind, and instant saves confirm each save', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const account = await accountWithContacts(server, 'unsaved', ['Nora']);
  await apiAs(server, account.key).lists.create({ name: 'news' });
  const address = `nora@${account.name}.example`;
  const contact = (await apiAs(server, account.key).contacts.list({ search: 'nora' })).data[0];
  await apiAs(server, account.key).contacts.update(contact?.id ?? 0, { lists: ['news'] });
  const nav = page.getByRole('navigation', { name: 'Main' });
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });

  await signInWithKey(page, account.key);
  await page.getByRole('link', { name: `Nora ${account.name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Nora ${account.name}` })).toBeVisible();

  // Controls that save at once say so, and confirm each save.
  await expect(page.getByText('save as soon as they change')).toBeVisible();
  const paused = page.getByRole('row', { name: new RegExp(address) }).getByRole('status');
  await page.getByLabel(`Paused for ${address} (saved at once)`).check();
  // One status per control (digest, paused): the paused one says it saved.
  await expect(paused.filter({ hasText: 'Saved' })).toHaveCount(1);
  const digest = page.getByLabel('Digest for news (saved at once)');
  await digest.selectOption({ label: 'Daily digest' });
  await expect(page.getByRole('row', { name: /news/ }).getByRole('status')).toHaveText('Saved');

  // The contact page: an edit not saved asks before leaving; staying keeps it.
  await page.getByLabel('First name').fill('Nora-Jane');
  await nav.getByRole('link', { name: 'Lists' }).click();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page.getByLabel('First name')).toHaveValue('Nora-Jane');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  // Saved: leaving no longer asks.
  await page.getByRole('link', { name: 'All contacts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();

  // A new contact with an address typed: asks; leaving on purpose goes.
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByLabel('Address', { exact: true }).fill('new@example.org');
  await page.getByRole('link', { name: 'All contacts' }).click();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Leave and lose the changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();

  // A pasted import: asks before leaving, and "Back" from the mapping keeps the paste.
  await page.getByRole('link', { name: 'Import CSV' }).click();
  const csv = 'email,firstname\nzed@example.org,Zed';
  await page.getByLabel('Or paste CSV').fill(csv);
  await nav.getByRole('link', { name: 'Lists' }).click();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page.getByLabel('Or paste CSV')).toHaveValue(csv);

  // An edited dialog: Escape asks first instead of closing.
  await nav.getByRole('link', { name: 'Administrators' }).click();
  await leave.getByRole('button', { name: 'Leave and lose the changes' }).click();
  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('First name').fill('Half typed');
  await page.keyboard.press('Escape');
  const discard = create.getByRole('alertdialog', { name: 'Discard the changes?' });
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(create.getByLabel('First name')).toHaveValue('Half typed');
  await page.keyboard.press('Escape');
  await discard.getByRole('button', { name: 'Discard the changes' }).click();
  await expect(create).toBeHidden();
  // Untouched, Escape closes at once.
  await page.getByRole('button', { name: 'New administrator' }).click();
  await page.keyboard.press('Escape');
  await expect(create).toBeHidden();
});

test('the account dialogs ask before Escape drops what was typed; untouched, they close at once', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'dialogs', ['Ola']);
  const { key } = await createKey(server, 'global');
  await signInWithKey(page, key, { path: '/accounts' });

  await page.getByRole('button', { name: 'New account' }).click();
  const create = page.getByRole('dialog', { name: 'New account' });
  await create.getByLabel('Description').fill('Half typed');
  await page.keyboard.press('Escape');
  const discard = create.getByRole('alertdialog', { name: 'Discard the changes?' });
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(create.getByLabel('Description')).toHaveValue('Half typed');
  await page.keyboard.press('Escape');
  await discard.getByRole('button', { name: 'Discard the changes' }).click();
  await expect(create).toBeHidden();

  await page.getByLabel('Search accounts').fill(account.name);
  await page.getByRole('button', { name: `Settings of ${account.name}` }).click();
  const settings = page.getByRole('dialog', { name: `Settings of ${account.name}` });
  await expect(settings.getByLabel('Time zone')).not.toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  await page.getByRole('button', { name: `Settings of ${account.name}` }).click();
  await settings.getByLabel('Confirmation subject').fill('Please say yes');
  await page.keyboard.press('Escape');
  await expect(settings.getByRole('alertdialog', { name: 'Discard the changes?' })).toBeVisible();
  await settings.getByRole('button', { name: 'Keep editing' }).click();
  await expect(settings.getByLabel('Confirmation subject')).toHaveValue('Please say yes');
});
