import {
  createAccount,
  createKey,
  expect,
  signInOnServerPage,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';

const PASSWORD = 'a password of length';

/**
 * Issue 17 item 6: a person created on the administrators page can sign in with the password set
 * there; an API key for a program is made from a description and its key retrieved with an expiry
 * by default; the signed-in administrator's row is marked, and demoting or deleting it warns.
 */
test('administrators: a person who can sign in, a key for a program, and your own row', async ({
  page,
  server,
}) => {
  // One story from the first administrator to the person signing in: long on a loaded machine.
  test.setTimeout(180_000);
  const account = await createAccount(server, uniqueName('people'));
  const { key } = await createKey(server, { account: account.name });
  const username = `${uniqueName('pat')}@example.com`;

  await signInWithKey(page, key, { path: '/administrators' });
  await expect(page.getByRole('heading', { level: 1, name: 'Administrators' })).toBeVisible();
  // Your own entry, marked.
  const own = page.getByRole('row', { name: /\(you\)/ });
  await expect(own).toHaveCount(1);

  // A person, with a password to sign in and the contact permission.
  await page.getByRole('button', { name: 'New administrator' }).click();
  let create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('Username (email address)').fill(username);
  await create.getByLabel('First name').fill('Pat');
  // A new person has no password to keep: the hint says what an empty one means for them.
  await expect(create.getByLabel('Password (to sign in)')).toHaveAccessibleDescription(
    /Empty: they cannot sign in until they are given one\.$/,
  );
  await create.getByLabel('Password (to sign in)').fill('too short');
  await create.getByRole('checkbox', { name: 'contact', exact: true }).check();
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(
    create.getByText('The password needs at least 12 characters (the rule for passwords).'),
  ).toBeVisible();
  await create.getByLabel('Password (to sign in)').fill(PASSWORD);
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(username) })).toBeVisible();

  // A program's API key, from a description; its key is retrieved next, expiring by default.
  await page.getByRole('button', { name: 'New administrator' }).click();
  create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('A program, with an API key').check();
  await expect(create.getByLabel('Username (email address)')).toHaveCount(0);
  await expect(create.getByLabel('Password (to sign in)')).toHaveCount(0);
  await create.getByRole('button', { name: 'Create the API key' }).click();
  await expect(create.getByText('The description is required for an API key.')).toBeVisible();
  await create.getByLabel('Description').fill('Nightly export');
  await create.getByRole('checkbox', { name: 'contact', exact: true }).check();
  await create.getByRole('button', { name: 'Create the API key' }).click();
  const retrieve = page.getByRole('dialog', { name: 'API key for Nightly export' });
  await expect(retrieve.getByLabel('Expires after')).toHaveValue('3');
  await retrieve.getByRole('button', { name: 'Retrieve a new key' }).click();
  await expect(retrieve.getByTestId('retrieved-key')).not.toBeEmpty();
  await expect(retrieve.getByText(/^It expires on /)).toBeVisible();
  await retrieve.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /Nightly export/ })).toContainText('API key');

  // Deleting yourself says so first.
  await own.getByRole('button', { name: /^Delete/ }).click();
  const remove = page.getByRole('dialog', { name: /^Delete / });
  await expect(remove).toContainText('This is you');
  await remove.getByRole('button', { name: 'Cancel' }).click();
  // So does taking superadmin away from yourself.
  await own.getByRole('button', { name: /^Edit/ }).click();
  const edit = page.getByRole('dialog', { name: /^Edit / });
  await edit.getByRole('checkbox', { name: 'superadmin', exact: true }).uncheck();
  await edit.getByRole('button', { name: 'Save the administrator' }).click();
  const demote = page.getByRole('dialog', { name: 'Take superadmin away from yourself?' });
  await expect(demote).toBeVisible();
  await demote.getByRole('button', { name: 'Cancel' }).click();
  await expect(demote).toBeHidden();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(own).toContainText('superadmin');

  // The person signs in with the password given here, and the header names them.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServerPage(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/contacts$/);
  const banner = page.getByRole('banner');
  await expect(banner).toContainText(`Signed in: Pat (${username})`);
  await expect(banner).toContainText(`Account ${account.name}`);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administrators' }),
  ).toHaveCount(0);
});
