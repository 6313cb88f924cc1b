import {
  accountWithContacts,
  apiAs,
  createKey,
  expect,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import { expectNoAxeViolations } from './fixtures/axe.ts';


test('a global operator creates, edits, opens and deletes an account', async ({ page, server }) => {
  const other = await accountWithContacts(server, 'bystander', ['Bea']);
  const { key } = await createKey(server, 'global');
  const name = uniqueName('acme');
  const boss = `${uniqueName('boss')}@example.org`;

  await signInWithKey(page, key, { path: '/accounts' });
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await expectNoAxeViolations(page, 'the accounts page');

  // Create, with the contract's name rules checked before sending.
  await page.getByRole('button', { name: 'New account' }).click();
  const create = page.getByRole('dialog', { name: 'New account' });
  await create.getByLabel('Name', { exact: true }).fill('bad name');
  await create.getByRole('button', { name: 'Create the account' }).click();
  await expect(
    create.getByText('Name may hold only letters, digits, underscore, period and hyphen.'),
  ).toBeVisible();
  await create.getByLabel('Name', { exact: true }).fill(name);
  await create.getByLabel('Description').fill('Acme corp');
  await create.getByLabel('Initial domain').fill('lists.acme.example');
  await create.getByLabel('Initial administrator (email)').fill(boss);
  await expectNoAxeViolations(page, 'the new-account dialog');
  await create.getByRole('button', { name: 'Create the account' }).click();
  await expect(create).toBeHidden();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row).toContainText('Acme corp');

  // The server's refusal of a duplicate name goes on the name.
  await page.getByRole('button', { name: 'New account' }).click();
  await create.getByLabel('Name', { exact: true }).fill(name);
  await create.getByRole('button', { name: 'Create the account' }).click();
  await expect(create.getByText(`An account named ${name} already exists.`)).toBeVisible();
  await expect(create.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await create.getByRole('button', { name: 'Cancel' }).click();

  // Search as you type; the §4.7 username filter asks the server.
  await page.getByLabel('Search accounts').fill(other.name);
  await expect(page.getByRole('link', { name: other.name })).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByLabel('Search accounts').fill('');
  await page.getByText('Filters', { exact: true }).click();
  await page.getByLabel('With the administrator (username)').fill(boss);
  await page.getByRole('button', { name: 'Apply the filters' }).click();
  await expect(page.getByRole('link', { name: other.name })).toHaveCount(0);
  await expect(row).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByRole('link', { name: other.name })).toBeVisible();

  // Edit every kind of field; a bad expression is flagged as it is typed.
  await row.getByRole('button', { name: `Settings of ${name}` }).click();
  const settings = page.getByRole('dialog', { name: `Settings of ${name}` });
  await expect(settings.getByLabel('Time zone')).not.toHaveValue('');
  await settings.getByLabel('Time zone').fill('Europe/Paris');
  await settings.getByLabel('2: Delete every message held for approval').check();
  await settings
    .getByLabel('Subscriptions (default for lists)', { exact: true })
    .selectOption('closed');
  await settings.getByLabel('New lists need approval').check();
  const restrict = settings.getByLabel('Addresses allowed in the account');
  await restrict.fill('@acme\\.example$\n[');
  await expect(
    settings.getByText('line 2 ([) is not a valid regular expression', { exact: false }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'the account settings dialog');
  await restrict.fill('@acme\\.example$');
  await expect(
    settings.getByText('is not a valid regular expression', { exact: false }),
  ).toHaveCount(0);
  // The server's refusal of a name in use lands on the Name field of the settings too (form kit).
  const rename = settings.getByLabel('Name', { exact: true });
  await rename.fill(other.name);
  await settings.getByRole('button', { name: 'Save the settings' }).click();
  await expect(settings.getByText(`An account named ${other.name} already exists.`)).toBeVisible();
  await expect(rename).toHaveAttribute('aria-invalid', 'true');
  await rename.fill(name);
  await settings.getByLabel('Description').fill('Acme corporation');
  await settings.getByRole('button', { name: 'Save the settings' }).click();
  await expect(settings).toBeHidden();
  await expect(row).toContainText('Acme corporation');
  const id = Number(
    await row
      .getByRole('link', { name })
      .getAttribute('href')
      .then((h) => h?.split('/')[2]),
  );
  const saved = await apiAs(server, key).accounts.get(id);
  expect(saved).toMatchObject({
    description: 'Acme corporation',
    timezone: 'Europe/Paris',
    notify_approval: 2,
    subscriptions: 'closed',
    require_list_approval: true,
    restrict_contact: ['@acme\\.example$'],
  });
  expect(saved.users.map((user) => user.username)).toEqual([boss]);

  // Open it: its pages, named in the switcher.
  await row.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${id}/contacts$`));
  await expect(page.getByRole('button', { name: /^Account/ })).toContainText(name);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Administrators' })
    .click();
  await expect(page.getByRole('rowheader', { name: boss })).toBeVisible();

  // Delete: only once the name is typed.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Accounts' })
    .click();
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const remove = page.getByRole('dialog', { name: `Delete the account ${name}?` });
  const confirm = remove.getByRole('button', { name: 'Delete the account' });
  await expect(confirm).toBeDisabled();
  await remove.getByLabel(`Type ${name} to confirm`).fill(name.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await remove.getByLabel(`Type ${name} to confirm`).fill(name);
  await expectNoAxeViolations(page, 'the delete-account dialog');
  await confirm.click();
  await expect(remove).toBeHidden();
  await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
  await expect(apiAs(server, key).accounts.get(id)).rejects.toMatchObject({ status: 404 });
});

test('the group level lists the global administrators (no account_id)', async ({
  page,
  server,
}) => {
  const { key, id } = await createKey(server, 'global');
  const requests: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/2/users/') requests.push(url);
  });
  await signInWithKey(page, key, { path: '/accounts' });
  await page.getByRole('link', { name: 'Global administrators' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Global administrators' }),
  ).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Edit' }) });
  await expect(row.first()).toContainText('API key (v2)');
  await expect(row.first()).toContainText('account');
  expect(requests.length).toBeGreaterThan(0);
  for (const url of requests) expect(url.searchParams.has('account_id')).toBe(false);
  await expectNoAxeViolations(page, 'the global administrators page');

  // A global administrator limited to lists by name: no account to pick them from.
  const username = `${uniqueName('global')}@example.org`;
  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('Username (email address)').fill(username);
  await create.getByRole('checkbox', { name: 'list', exact: true }).check();
  await create.getByRole('checkbox', { name: 'limit_lists' }).check();
  await create.getByLabel('Lists this administrator is limited to').fill('news\n\nweekly');
  await expectNoAxeViolations(page, 'the new global administrator dialog');
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create).toBeHidden();
  const created = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: username }) });
  await expect(created).toContainText('lists: news, weekly');
  expect(requests.length).toBeGreaterThan(1);
  for (const url of requests) expect(url.searchParams.has('account_id')).toBe(false);
  const globalUsers = await apiAs(server, key).users.list();
  expect(globalUsers.map((user) => user.id)).toContain(id);
  expect(globalUsers.find((user) => user.username === username)?.limit_lists).toEqual([
    'news',
    'weekly',
  ]);
});
