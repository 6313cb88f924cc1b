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
  await create.getByLabel('IP restriction (CIDR)').fill('10.0.0.0/33');
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create.getByText(/^The IP restriction is not a valid IP address/)).toBeVisible();
  await create.getByLabel('IP restriction (CIDR)').fill('');
  // A preset fills the boxes; the limits appear only with their permission.
  await create.getByRole('button', { name: 'Moderator' }).click();
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
  await expect(row).toContainText('Not retrieved in this tab');

  // The server's refusal goes on the field it names.
  await page.getByRole('button', { name: 'New administrator' }).click();
  await create.getByLabel('Username (email address)').fill(username);
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(
    create.getByText(`The username an administrator named ${username} already exists.`),
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
  const key = (await retrieve.getByTestId('retrieved-key').textContent()) ?? '';
  expect(key.length).toBeGreaterThan(20);
  await expectNoAxeViolations(page, 'the retrieved-key dialog');
  await retrieve.getByRole('button', { name: 'Copy the key' }).click();
  await expect(retrieve.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await retrieve.getByRole('button', { name: 'Done' }).click();
  await expect(row).toContainText(/in (2[89]|3[01]) days/);
  await expect(page.getByText(key)).toHaveCount(0);

  // Signed in with that key elsewhere: Lists works, Contacts is refused.
  const other = await browser.newContext();
  const limited = await other.newPage();
  await signInWithKey(limited, key, { path: '/lists' });
  await expect(limited.getByRole('cell', { name: 'news', exact: true })).toBeVisible();
  await signInWithKey(limited, key, { path: '/contacts' });
  await expect(limited.getByRole('alert')).toContainText('Not permitted');
  await expect(limited.getByRole('cell', { name: `Ada ${account.name}` })).toHaveCount(
    0,
  );

  // Edit: add the contact permission; the same key now reads the contacts.
  await row.getByRole('button', { name: `Edit ${username}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${username}` });
  await expect(edit.getByLabel('First name')).toHaveValue('Lim');
  await expect(edit.getByLabel('Send a welcome email')).toHaveCount(0);
  await edit.getByRole('checkbox', { name: 'contact', exact: true }).check();
  await edit.getByRole('button', { name: 'Save the administrator' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('list, contact');
  await signInWithKey(limited, key, { path: '/contacts' });
  await expect(
    limited.getByRole('cell', { name: `Ada ${account.name}` }),
  ).toBeVisible();
  await other.close();

  // Delete, after a confirmation.
  await row.getByRole('button', { name: `Delete ${username}` }).click();
  const remove = page.getByRole('dialog', { name: `Delete ${username}?` });
  await remove.getByRole('button', { name: 'Delete the administrator' }).click();
  await expect(remove).toBeHidden();
  await expect(page.getByRole('rowheader', { name: username })).toHaveCount(0);
});
