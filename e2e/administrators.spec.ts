import {
  accountWithContacts,
  apiAs,
  expect,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import { expectNoAxeViolations } from './fixtures/axe.ts';

test('an administrator with limited permissions gets a key that can do only what it may', async ({
  page,
  browser,
  server,
  context,
}) => {
  const account = await accountWithContacts(server, 'admins', ['Ada']);
  await apiAs(server, account.key).lists.create({ name: 'news', description: 'Monthly news' });
  await server.cli([
    'field',
    'create',
    '--account',
    account.name,
    '--name',
    'Region',
    '--identifier',
    'region',
  ]);
  const username = `${uniqueName('lim')}@example.org`;

  await signInWithKey(page, account.key, { path: '/administrators' });
  await expect(page.getByRole('heading', { level: 1, name: 'Administrators' })).toBeVisible();
  await expect(page.getByRole('table').getByText('superadmin').first()).toBeVisible();
  await expectNoAxeViolations(page, 'the administrators page');

  // Create a person with the `list` permission only.
  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create.getByText('The username is not a valid email address.')).toBeVisible();
  await create.getByLabel('Username (email address)').fill(username);
  await create.getByLabel('First name').fill('Lim');
  // The cidr warns, as it is typed, when it would shut out the address the server sees (127.0.0.1).
  const cidr = create.getByLabel('IP restriction (CIDR)');
  const excluded = create.getByText(/excludes 127\.0\.0\.1, the address you are using now/);
  await cidr.fill('10.0.0.0/8');
  await expect(excluded).toBeVisible();
  await expect(cidr).toHaveAccessibleDescription(/excludes 127\.0\.0\.1/);
  await expectNoAxeViolations(page, 'the cidr warning');
  await cidr.fill('127.0.0.0/8');
  await expect(excluded).toHaveCount(0);
  await cidr.fill('::1');
  await expect(excluded).toBeVisible();
  await cidr.fill('127.0.0.1/32');
  await expect(excluded).toHaveCount(0);
  await cidr.fill('10.0.0.0/33');
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create.getByText(/^The IP restriction is not a valid IP address/)).toBeVisible();
  await create.getByLabel('IP restriction (CIDR)').fill('');
  // A preset fills the boxes; the limits appear only with their permission.
  await create.getByRole('button', { name: 'Moderate and send to lists' }).click();
  await expect(
    create.getByRole('checkbox', { name: 'approval', exact: true }).first(),
  ).toBeChecked();
  await create.getByRole('checkbox', { name: 'limit_lists' }).check();
  await expect(
    create.getByRole('group', { name: 'Lists this administrator is limited to' }),
  ).toBeVisible();
  await expect(create.getByLabel('news')).toBeVisible();
  await expectNoAxeViolations(page, 'the new-administrator dialog');
  await create.getByRole('checkbox', { name: 'limit_lists' }).uncheck();
  await expect(
    create.getByRole('group', { name: 'Lists this administrator is limited to' }),
  ).toHaveCount(0);
  const permissions = create.getByRole('group', { name: /^Permissions: lists/ });
  await permissions.getByRole('checkbox', { name: 'approval', exact: true }).uncheck();
  await permissions.getByRole('checkbox', { name: 'messages', exact: true }).uncheck();
  await permissions.getByRole('checkbox', { name: 'list', exact: true }).check();
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create).toBeHidden();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: username }) });
  await expect(row).toContainText('Person');
  await expect(row.getByRole('cell', { name: 'list', exact: true })).toBeVisible();
  // The server's key_expiry extension: a person without a key, the account's key without expiry.
  await expect(row).toContainText('No key');
  const accountKeyRow = page.getByRole('row').filter({ hasText: 'API key (v2)' });
  await expect(accountKeyRow).toContainText('No expiry');

  // The server's refusal goes on the field it names.
  await page.getByRole('button', { name: 'New administrator' }).click();
  await create.getByLabel('Username (email address)').fill(username);
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  // SECURITY.md 33: the same words whether the name is taken here or in another account.
  await expect(
    create.getByText('The username cannot be used; choose another username.'),
  ).toBeVisible();
  await create.getByRole('button', { name: 'Cancel' }).click();

  // Retrieve a key that expires after one month: shown once, with a warning and a copy button.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await row.getByRole('button', { name: `Retrieve key for ${username}` }).click();
  const retrieve = page.getByRole('dialog', { name: `API key for ${username}` });
  await retrieve.getByLabel('Expires after').selectOption('1');
  await retrieve.getByRole('button', { name: 'Retrieve a new key' }).click();
  await expect(retrieve.getByText(/as sensitive as a password/)).toBeVisible();
  await expect(retrieve.getByText(/^It expires on /)).toBeVisible();
  // The form that had the focus is gone: the focus stays in the dialog, on the key's next step.
  await expect(retrieve.getByRole('button', { name: 'Copy the key' })).toBeFocused();
  const key = (await retrieve.getByTestId('retrieved-key').textContent()) ?? '';
  expect(key.length).toBeGreaterThan(20);
  await expectNoAxeViolations(page, 'the retrieved-key dialog');
  await retrieve.getByRole('button', { name: 'Copy the key' }).click();
  await expect(retrieve.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await retrieve.getByRole('button', { name: 'Done' }).click();
  await expect(row).toContainText(/Expires in (2[89]|3[01]) days/);
  await expect(page.getByText(key)).toHaveCount(0);
  // Another tab never saw the retrieval: the time left comes from the server.
  const otherTab = await context.newPage();
  await signInWithKey(otherTab, account.key, { path: '/administrators' });
  await expect(
    otherTab.getByRole('row').filter({ has: otherTab.getByRole('rowheader', { name: username }) }),
  ).toContainText(/Expires in (2[89]|3[01]) days/);
  await otherTab.close();

  // Signed in with that key elsewhere: Lists works, Contacts is refused.
  const other = await browser.newContext();
  const limited = await other.newPage();
  await signInWithKey(limited, key, { path: '/lists' });
  await expect(limited.getByRole('cell', { name: 'news', exact: true })).toBeVisible();
  await signInWithKey(limited, key, { path: '/contacts' });
  await expect(limited.getByRole('alert')).toContainText('Not permitted');
  await expect(limited.getByRole('cell', { name: `Ada ${account.name}` })).toHaveCount(0);

  // Edit: add the contact permission; the same key now reads the contacts.
  await row.getByRole('button', { name: `Edit ${username}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${username}` });
  await expect(edit.getByLabel('First name')).toHaveValue('Lim');
  await expect(edit.getByLabel('Send a welcome email')).toHaveCount(0);
  await edit.getByRole('checkbox', { name: 'contact', exact: true }).check();
  // limit_metadata is picked from the account's custom fields (read from a contact).
  await edit.getByRole('checkbox', { name: 'limit_metadata' }).check();
  const fields = edit.getByRole('group', {
    name: 'Custom fields this administrator is limited to',
  });
  await fields.getByRole('checkbox', { name: 'region' }).check();
  await expect(edit.getByLabel('Other custom fields')).toHaveValue('');
  await expectNoAxeViolations(page, 'the custom-field limit');
  await edit.getByRole('button', { name: 'Save the administrator' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('list, contact');
  await expect(row).toContainText('fields: region');
  await signInWithKey(limited, key, { path: '/contacts' });
  await expect(limited.getByRole('cell', { name: `Ada ${account.name}` })).toBeVisible();
  await other.close();

  // Delete, after a confirmation.
  await row.getByRole('button', { name: `Delete ${username}` }).click();
  const remove = page.getByRole('dialog', { name: `Delete ${username}?` });
  await remove.getByRole('button', { name: 'Delete the administrator' }).click();
  await expect(remove).toBeHidden();
  await expect(page.getByRole('rowheader', { name: username })).toHaveCount(0);
});

test('against a server without the extensions, no cidr warning and no error', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'foreign', []);
  // What another API v2 server answers: no caller route, no key_expiry on administrators.
  await page.route('**/api/2/caller/**', (route) =>
    route.fulfill({
      status: 404,
      contentType: 'application/json',
      body: JSON.stringify({ is_error: true, message: 'The API request does not exist' }),
    }),
  );
  await page.route('**/api/2/users/**', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, unknown>[] };
    for (const administrator of body.data) delete administrator.key_expiry;
    return route.fulfill({ response, json: body });
  });
  // The shell asks who is calling once, as it opens (lib/caller-queries.ts).
  const caller = page.waitForResponse('**/api/2/caller/**');
  await signInWithKey(page, account.key, { path: '/administrators' });
  const keyRow = page.getByRole('row').filter({ hasText: 'API key (v2)' });
  await expect(keyRow).toContainText('Not retrieved in this tab');

  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('Username (email address)').fill(`${uniqueName('foreign')}@example.org`);
  await create.getByLabel('IP restriction (CIDR)').fill('10.0.0.0/8');
  expect((await caller).status()).toBe(404);
  await expect(create.getByText(/the address you are using now/)).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create).toBeHidden();
});
