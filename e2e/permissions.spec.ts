import {
  accountWithClub,
  createAccount,
  expect,
  keyWith,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';

/**
 * Issue 17 items 2 and 7: a key with only `approval` and `messages` lands on a page it may see,
 * is offered no page or action its permissions refuse, and the header names the key and the
 * account; a page it may not open says which permission it needs.
 */
test('a moderator key sees only what it may use, and the header names it and its account', async ({
  page,
  server,
}) => {
  const account = await createAccount(server, uniqueName('perm'));
  const key = await keyWith(server, account.name, ['approval', 'messages'], 'Moderation desk');

  await signInWithKey(page, key);
  // Lands on the first page it may open: the held queue, a moderator's daily work, not Contacts.
  await expect(page).toHaveURL(/\/held$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Held messages' })).toBeVisible();
  const banner = page.getByRole('banner');
  await expect(banner).toContainText('Signed in: API key “Moderation desk”');
  await expect(banner).toContainText(`Account ${account.name}`);
  await expect(banner).not.toContainText('of this');

  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Held' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Messages' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Lists' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Contacts' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Administrators' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Messages' }).click();
  await expect(page.getByRole('link', { name: 'New message' })).toBeVisible();

  // Lists: readable, but neither created nor deleted by this key.
  await nav.getByRole('link', { name: 'Lists' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create list' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  // A page it may not open, by its address: which permission it needs, and no "Try again".
  // (The key lives in page memory only: opening an address asks for it again.)
  await signInWithKey(page, key, { path: '/contacts' });
  await expect(page.getByRole('alert')).toContainText(
    'Not permitted: this page needs the contact or membership permission',
  );
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New contact' })).toHaveCount(0);
  await signInWithKey(page, key, { path: '/administrators' });
  await expect(page.getByRole('alert')).toContainText('needs the superadmin permission');
});

test('a superadmin key lands on Contacts with every page and action', async ({ page, server }) => {
  const account = await createAccount(server, uniqueName('full'));
  const { key } = (await server.cli(['key', 'create', '--account', account.name])) as {
    key: string;
  };
  await signInWithKey(page, key);
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('banner')).toContainText(`Account ${account.name}`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Contacts', 'Lists', 'Messages', 'Held', 'Requests', 'Administrators'])
    await expect(nav.getByRole('link', { name })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New contact' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Import CSV' })).toBeVisible();
});

test('a membership key manages members but creates no contact, and sees list settings read-only; the server’s own 403 names the permission', async ({
  page,
  server,
}) => {
  const account = await accountWithClub(server, 'memb', ['Ann']);
  const desk = (await server.cli([
    'key',
    'create',
    '--account',
    account.name,
    '--permission',
    'membership',
    '--description',
    'Member desk',
  ])) as { key: string; id: number };
  const key = desk.key;

  await signInWithKey(page, key, { path: '/lists/club/members' });
  await expect(page.getByRole('heading', { level: 1, name: 'Members of club' })).toBeVisible();
  // `membership` adds, removes and changes memberships (spec §2.6)…
  await expect(page.getByRole('button', { name: 'Remove Ann Member from club' })).toBeVisible();
  await expect(page.getByLabel('Digest for Ann Member (saved at once)')).toBeEnabled();
  // …but a new address would need a new contact, which only `contact` may create.
  const fresh = `new@${account.name}.example`;
  await page.getByLabel('Name or address').fill(fresh);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByText(`No contact matches “${fresh}”.`)).toBeVisible();
  await expect(page.getByRole('button', { name: /Create a contact for/ })).toHaveCount(0);

  // The list's settings: shown, every control disabled, nothing to save.
  await signInWithKey(page, key, { path: '/lists/club' });
  const general = page.getByRole('region', { name: 'General', exact: true });
  await expect(general.getByLabel('Description')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Review and save' })).toHaveCount(0);
  await expect(
    page.getByText('changing them needs the list or list_settings permission'),
  ).toBeVisible();

  // The permission is taken away while the page is open: the dashboard still offers the change
  // (it read the permissions at sign-in), the server refuses it, and its 403 says what is missing.
  await signInWithKey(page, key, { path: '/lists/club/members' });
  const digest = page.getByLabel('Digest for Ann Member (saved at once)');
  await expect(digest).toBeEnabled();
  await account.api.users.update(desk.id, { permissions: ['approval'] });
  await digest.selectOption({ label: 'Daily digest' });
  await expect(page.getByRole('alert')).toHaveText(
    'Not permitted: This key lacks the membership or contact permission',
  );
  await expect(page.getByRole('status').filter({ hasText: 'Not saved' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
});

/**
 * Spec §2.6 limit_lists and limit_metadata, SECURITY.md 32: a key confined to one list and one
 * custom field is offered no new list outside them, no change to an administrator who is not
 * confined as narrowly, passes its limits on to whoever it makes, and adds no custom field.
 */
test('a list- and field-limited superadmin key is offered only what its limits allow', async ({
  page,
  server,
}) => {
  const account = await accountWithClub(server, 'limit', ['Ann']);
  await account.api.lists.create({ name: 'news' });
  await server.cli(['field', 'create', '--account', account.name, '--name', 'Region']);
  await account.api.contacts.create({
    firstname: 'Bo',
    surname: 'Both',
    emails: [`bo@${account.name}.example`],
    lists: ['club', 'news'],
  });
  const limited = await account.api.users.create({
    description: 'Club desk',
    permissions: ['superadmin', 'limit_lists', 'limit_metadata'],
    limit_lists: ['club'],
    limit_metadata: ['Region'],
  });
  const { key } = await account.api.users.retrieveKey(limited.id);

  await signInWithKey(page, key, { path: '/lists' });
  const table = page.getByRole('table');
  await expect(table.getByRole('link', { name: 'club' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'news' })).toHaveCount(0);
  // Its only list exists: a new one would be outside the limit, which the server refuses.
  await expect(page.getByText('a new list would be outside them')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create list' })).toHaveCount(0);

  // Administrators: the account's unconfined superadmin key is shown, not offered for change.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Administrators' })
    .click();
  const own = page.getByRole('row', { name: /Club desk/ });
  await expect(own.getByRole('button', { name: /^Edit/ })).toBeVisible();
  const unconfined = page.getByRole('row').filter({ hasText: 'Beyond your own permissions' });
  await expect(unconfined).toHaveCount(1);
  await expect(unconfined.getByRole('button')).toHaveCount(0);
  // Whoever it makes keeps its limits: ticked, not to be unticked, its list chosen.
  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  await expect(create.getByRole('checkbox', { name: 'limit_lists' })).toBeChecked();
  await expect(create.getByRole('checkbox', { name: 'limit_lists' })).toBeDisabled();
  await expect(create.getByRole('checkbox', { name: 'limit_metadata' })).toBeDisabled();
  await expect(create.getByRole('checkbox', { name: 'club' })).toBeChecked();
  await create.getByRole('button', { name: 'Cancel' }).click();

  // A contact shows the one custom field it may write, and no way to add another. (Moved to by
  // the navigation: a load would ask for the key again, which lives in page memory only.)
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contacts' })
    .click();
  await page.getByRole('link', { name: 'Ann Member' }).click();
  await expect(page.getByRole('textbox', { name: 'Field', exact: true })).toHaveValue('Region');
  await expect(page.getByRole('button', { name: 'Add a custom field' })).toHaveCount(0);

  // A contact also on a list beyond the limit (hidden from the key) cannot be changed: the page
  // gives the server's reason, not a permission the key holds as the one missing.
  await page.getByRole('link', { name: 'All contacts' }).click();
  await page.getByRole('link', { name: 'Bo Both' }).click();
  await page.getByLabel('Notes').fill('Seen at the club desk');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Not permitted' });
  await expect(refusal).toContainText('this contact is also on others');
  await expect(refusal).not.toContainText('permission');
});

test('a moderator key opens no members page and sees no member actions', async ({
  page,
  server,
}) => {
  const account = await accountWithClub(server, 'modm', []);
  const key = await keyWith(server, account.name, ['approval']);
  await signInWithKey(page, key, { path: '/lists/club/members' });
  await expect(page.getByRole('alert')).toContainText('contact or membership permission');
  await expect(page.getByLabel('Name or address')).toHaveCount(0);
  await signInWithKey(page, key, { path: '/lists/club' });
  await expect(page.getByRole('heading', { level: 1, name: 'List club' })).toBeVisible();
  // The settings load (the section links show), without the way to the members.
  await expect(page.getByRole('link', { name: 'Members', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: /^(Manage the members|Add members)$/ })).toHaveCount(
    0,
  );
});
