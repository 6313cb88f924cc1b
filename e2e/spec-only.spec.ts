import type { Page } from '@playwright/test';
import {
  accountWithClub,
  accountWithContacts,
  apiAs,
  browserStorage,
  createAccount,
  createKey,
  signInWithKey,
  storeForeignAdministrator,
  storeForeignSettings,
  uniqueName,
  watchContactReads,
} from './fixtures/dashboard.ts';
import { expect, test, type RunningGateway } from './fixtures/gateway.ts';
import { accountWithList, sendMessage } from './fixtures/messages.ts';
import { useUpAllowance } from './fixtures/rate-limit.ts';

/**
 * Issue 15 items 4 and 6: every page through `listkeeper dashboard` (e2e/fixtures/gateway.ts) in
 * front of a server that offers exactly spec v2 (`EXTENSIONS=off`): no caller, `list` filter,
 * held queue, key_expiry, max_contacts or X-RateLimit-* headers. Each page does its main job, says
 * where an extension is missing, and logs no console error (the fixture fails the test on one; the
 * browser's log of a 4xx is allowed, as the dashboard probes for the extensions). The gateway's own
 * rules (OAuth, sessions, the proxy) are in gateway.spec.ts.
 */
test.use({ viewport: { width: 1440, height: 900 } });

/**
 * SECURITY.md 10 and 11 on every page a test visited: the page sent no Authorization header and
 * asked only its own origin, and no credential the gateway holds is in its storage or a URL.
 */
function watchTheBrowser(page: Page, gateway: RunningGateway) {
  const urls: string[] = [];
  const authorizations: string[] = [];
  page.context().on('request', (request) => {
    urls.push(request.url());
    const header = request.headers()['authorization'];
    if (header) authorizations.push(header);
  });
  return async () => {
    expect(authorizations).toEqual([]);
    for (const url of urls) expect(new URL(url).origin, url).toBe(gateway.url);
    const secrets = [...(await gateway.heldCredentials()), ...(await gateway.ownSecrets())];
    const stores = JSON.stringify(await browserStorage(page));
    for (const secret of secrets) {
      expect(stores.includes(secret), 'a secret is in the browser’s storage').toBe(false);
      expect(urls.join('\n').includes(secret), 'a secret is in a URL').toBe(false);
    }
  };
}

test('the upstream offers no extension; contacts through the gateway: the table, a new contact, a search, an import', async ({
  page,
  server,
  gateway,
}) => {
  const account = await accountWithContacts(server, 'plain', ['Ada', 'Grace']);
  // The upstream is spec v2 only: no /config.json, no `caller`.
  expect((await page.request.get(`${server.url}/config.json`)).status()).toBe(404);
  const caller = await page.request.get(`${server.url}/api/2/caller/`, {
    headers: { authorization: `Bearer ${account.key}` },
  });
  expect([caller.status(), await caller.json()]).toEqual([
    404,
    { is_error: true, message: 'The API request does not exist' },
  ]);
  const checkTheBrowser = watchTheBrowser(page, gateway);

  await signInWithKey(page, account.key, { path: '/contacts' });
  // Issue 15 item 2: spec v2 names neither the key nor its account, and the header says so.
  const banner = page.getByRole('banner');
  await expect(banner).toContainText(
    `Signed in: API key (the server does not say which) at ${new URL(server.url).host}`,
  );
  await expect(banner).toContainText('Account not named by the server');

  await expect(page.getByRole('cell', { name: `Ada ${account.name}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Grace ${account.name}` })).toBeVisible();
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByLabel('First name').fill('Carla');
  await page.getByLabel('Surname').fill('Diaz');
  await page.getByLabel('Address', { exact: true }).fill(`carla@${account.name}.example`);
  await page.getByRole('button', { name: 'Create the contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Carla Diaz' })).toBeVisible();
  await page.getByRole('link', { name: 'All contacts' }).click();
  await page.getByLabel('Search contacts').fill('carla');
  await expect(page.getByRole('status').filter({ hasText: '1 contact' })).toBeVisible();

  // Import: one new row, one merged into the contact its address names.
  await page.getByLabel('Search contacts').fill('');
  await page.getByRole('link', { name: 'Import CSV' }).click();
  const domain = `${account.name}.example`;
  await page
    .getByLabel('Or paste CSV')
    .fill(`email,notes\r\nada@${domain},Merged note\r\nfresh@${domain},New one\r\n`);
  await page.getByRole('button', { name: 'Read the pasted CSV' }).click();
  await page.getByLabel('Merge the row into that contact').check();
  await page.getByRole('button', { name: 'Import 2 contacts' }).click();
  await expect(page.getByRole('region', { name: 'Import' }).getByRole('status')).toHaveText(
    'Finished. 2 rows: 1 created, 1 merged, 0 skipped (address already in the account), 0 refused by the server, 0 invalid (not sent).',
  );
  const api = apiAs(server, account.key);
  expect((await api.contacts.list({ email: `ada@${domain}` })).data[0]?.notes).toBe('Merged note');
  expect((await api.contacts.list({ email: `fresh@${domain}` })).count).toBe(1);
  await checkTheBrowser();
});

test('contacts filtered by a list: read by the list’s ids, and the export holds its members only', async ({
  page,
  server,
}) => {
  const account = await accountWithClub(server, 'bylist', ['Alan', 'Barbara']);
  const reads = watchContactReads(page);
  await signInWithKey(page, account.key, { path: '/contacts?list=club' });
  await expect(page.getByRole('status').filter({ hasText: /on club/ })).toHaveText(
    '2 contacts on club',
  );
  await expect(page.getByRole('table').getByRole('link')).toHaveText([
    'Alan Member',
    'Barbara Member',
  ]);
  // The `list` extension is tried once and refused; then each member is read by its id (§4.1).
  expect(reads[0]).toBe('/api/2/contacts/?list=club&page=1&limit=25');
  expect(reads.slice(1).every((read) => !read.includes('list='))).toBe(true);

  // A server that ignores `list` must not widen an export to every contact.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as CSV' }).click();
  const text = Buffer.concat(
    await (await (await download).createReadStream()).toArray(),
  ).toString();
  await expect(page.getByText('Exported 2 contacts.')).toBeVisible();
  expect(text).toContain('Alan');
  expect(text).not.toContain('Ada');

  // With a search, the search runs across all contacts and the page keeps the members.
  await page.getByLabel('Search contacts').fill('Barbara');
  await expect(page.getByRole('status').filter({ hasText: /on club/ })).toHaveText(
    '1 contact on club among 1 matching contacts',
  );
});

test('list settings are read and saved; the members page searches, adds and removes', async ({
  page,
  server,
}) => {
  const account = await accountWithClub(server, 'settings', ['Alan', 'Barbara']);
  await signInWithKey(page, account.key, { path: '/lists/club' });
  await expect(page.getByRole('heading', { level: 1, name: 'List club' })).toBeVisible();
  const general = page.getByRole('region', { name: 'General', exact: true });
  await general.getByLabel('Description').fill('Monthly news');
  await page.getByRole('button', { name: 'Review and save' }).click();
  const review = page.getByRole('dialog', { name: 'Save these changes?' });
  await review.getByRole('button', { name: 'Save the changes' }).click();
  await expect(review).toBeHidden();
  await expect
    .poll(async () => (await account.api.lists.get('club')).description)
    .toBe('Monthly news');

  // Members, without the `list` extension: the list's ids, each contact read by its id.
  await page.getByRole('link', { name: 'Manage the members' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Members of club' })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('link')).toHaveText(['Alan Member', 'Barbara Member']);
  await page.getByLabel('Search the members').fill('barbara');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(table.getByRole('link')).toHaveText(['Barbara Member']);
  await page.getByLabel('Search the members').fill('');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(table.getByRole('link')).toHaveCount(2);

  await page.getByLabel('Name or address').fill('Grace');
  await page.getByRole('button', { name: 'Find' }).click();
  await page.getByRole('button', { name: `Add Grace ${account.name} to club` }).click();
  await expect(page.getByText(`Grace ${account.name} is now a member of club.`)).toBeVisible();
  await expect(table.getByRole('link', { name: `Grace ${account.name}` })).toBeVisible();

  await page.getByRole('button', { name: 'Remove Alan Member from club' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove from club?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('link', { name: 'Alan Member' })).toHaveCount(0);
  const members = (await account.api.lists.get('club')).contacts;
  const names = await Promise.all(
    members.map(async (id) => (await account.api.contacts.get(id)).firstname),
  );
  expect(names.sort()).toEqual(['Barbara', 'Grace']);

  // Values our writes refuse, as another API v2 server (or older data) holds them (spec §2.4
  // fixes no format): the settings page shows them as they are, an unknown choice as unknown.
  storeForeignSettings(
    server,
    { list: 'club', account: account.id },
    {
      taboo_body: ['viagra++'],
      reply_to: 'antwort@bücher.example',
      memberview: 'moderators-only',
    },
  );
  await page.goto('/lists/club');
  await expect(page.getByRole('heading', { level: 1, name: 'List club' })).toBeVisible();
  await expect(page.getByLabel('Reply-to address')).toHaveValue('antwort@bücher.example');
  await expect(
    page.getByLabel('Members can see other members').locator('option:checked'),
  ).toHaveText('Unknown value ("moderators-only")');
});

test('messages are listed, read and sent', async ({ page, server }) => {
  const account = await accountWithList(server, 'archive');
  await account.api.contacts.create({
    firstname: 'Reader',
    emails: [`reader@${account.name}.example`],
    lists: ['news'],
  });
  const subject = uniqueName('Newsletter');
  await sendMessage(account.api, {
    list: 'news',
    subject,
    content_plain: 'Hello',
    content_html: '<p>Hello readers</p>',
  });
  await signInWithKey(page, account.key, { path: '/messages' });
  await page.getByRole('table').getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  const frame = page.frameLocator('iframe[title="The message as HTML"]');
  await expect(frame.getByText('Hello readers')).toBeVisible();

  await page.goto('/messages/new');
  await page.getByLabel('List').selectOption('news');
  await page.getByLabel('Subject').fill('Hello through the gateway');
  await page.getByLabel('Plain text').fill('Hello.');
  await page.getByRole('button', { name: 'Send to the list' }).click();
  await page
    .getByRole('dialog', { name: 'Send to news?' })
    .getByRole('button', { name: 'Send to 1 member' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued' })).toBeVisible();
  await expect
    .poll(async () =>
      (await account.api.messages.list({ limit: 10 })).data.map((message) => message.subject),
    )
    .toContain('Hello through the gateway');
});

test('administrators: the page says what the server does not report, creates an administrator and retrieves a key', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'admins', []);
  await signInWithKey(page, account.key, { path: '/administrators' });
  await expect(page.getByRole('heading', { level: 1, name: 'Administrators' })).toBeVisible();
  const keyRow = page.getByRole('row').filter({ hasText: 'API key (v2)' });
  await expect(keyRow).toContainText('Not retrieved in this tab');
  await expect(
    page.getByText(
      'This server does not say when API keys expire: the Key expiry column shows only keys retrieved in this tab.',
    ),
  ).toBeVisible();

  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  const username = `${uniqueName('moderator')}@example.org`;
  await create.getByLabel('Username (email address)').fill(username);
  const cidr = create.getByLabel('IP restriction (CIDR)');
  await cidr.fill('10.0.0.0/8');
  await expect(cidr).toHaveAccessibleDescription(
    /This server does not tell the dashboard which address it sees you from, so 10\.0\.0\.0\/8 cannot be checked against it/,
  );
  await cidr.fill('');
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create).toBeHidden();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: username }) });
  await expect(row).toBeVisible();

  // A key retrieved here is the one expiry the table can tell on such a server.
  await row.getByRole('button', { name: `Retrieve key for ${username}` }).click();
  const retrieve = page.getByRole('dialog', { name: `API key for ${username}` });
  await retrieve.getByRole('button', { name: 'Retrieve a new key' }).click();
  await retrieve.getByRole('button', { name: 'Done' }).click();
  await expect(row).not.toContainText('Not retrieved in this tab');

  // Values a newer server adds (spec §2.6): the table names them; the form shows them ticked
  // apart, refuses to save them (writes take the spec's values only), and saves once unticked.
  storeForeignAdministrator(server, username, {
    permissions: ['approval', 'webhooks'],
    notifications: ['digest'],
    mfa_type: 'webauthn',
  });
  await page.reload();
  await expect(row).toContainText('approval, webhooks');
  await row.getByRole('button', { name: `Edit ${username}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${username}` });
  const permissions = edit.getByRole('group', { name: 'Permissions this dashboard does not know' });
  const notifications = edit.getByRole('group', {
    name: 'Notifications this dashboard does not know',
  });
  await expect(permissions.getByLabel('webhooks')).toBeChecked();
  await edit.getByRole('button', { name: 'Save the administrator' }).click();
  await expect(
    edit.getByText(
      'The permissions holds webhooks, which this dashboard cannot set: untick it to save.',
    ),
  ).toBeVisible();
  await permissions.getByLabel('webhooks').uncheck();
  await notifications.getByLabel('digest').uncheck();
  await edit.getByRole('button', { name: 'Save the administrator' }).click();
  await expect(edit).toBeHidden();
  await expect(row).not.toContainText('webhooks');
  const saved = await apiAs(server, account.key).users.get(username);
  expect([saved.permissions, saved.notifications]).toEqual([['approval'], []]);
});

test('accounts: a global key switches accounts, lists, edits and opens the accounts of the group', async ({
  page,
  server,
}) => {
  const alpha = await accountWithContacts(server, 'alpha', ['Ada']);
  const beta = await accountWithContacts(server, 'beta', ['Brian']);
  const { key } = await createKey(server, 'global');
  expect(await apiAs(server, key).accounts.get(alpha.id)).not.toHaveProperty('max_contacts');
  await signInWithKey(page, key, { path: `/a/${alpha.id}/contacts` });
  // The switcher names the account: a global key reads them all (spec §4.7).
  await expect(page.getByRole('banner')).toContainText(
    'Signed in: Global API key (the server does not say which) at',
  );
  const switcher = page.getByRole('button', { name: /^Account/ });
  await expect(switcher).toContainText(alpha.name);
  await expect(page.getByRole('cell', { name: `Ada ${alpha.name}` })).toBeVisible();
  await switcher.click();
  await page.keyboard.type(beta.name);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/a/${beta.id}/contacts$`));
  await expect(page.getByRole('cell', { name: `Brian ${beta.name}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Ada ${alpha.name}` })).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Accounts' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: alpha.name, exact: true }) });
  await row.getByRole('button', { name: `Settings of ${alpha.name}` }).click();
  const settings = page.getByRole('dialog', { name: `Settings of ${alpha.name}` });
  await settings.getByLabel('Description').fill('The group account');
  await settings.getByRole('button', { name: 'Save the settings' }).click();
  await expect(settings).toBeHidden();
  await expect(row).toContainText('The group account');
  await row.getByRole('link', { name: alpha.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${alpha.id}/contacts$`));
  await expect(page.getByRole('cell', { name: `Ada ${alpha.name}` })).toBeVisible();

  // A value a newer server adds (spec §2.7): shown as unknown, not as the first choice (which a
  // save would have written), and refused on its field.
  storeForeignSettings(
    server,
    { account: alpha.id },
    { subscriptions: 'invite', notify_approval: 4 },
  );
  await page.goto('/accounts');
  await row.getByRole('button', { name: `Settings of ${alpha.name}` }).click();
  const subscriptions = settings.getByLabel('Subscriptions (default for lists)', { exact: true });
  await expect(subscriptions.locator('option:checked')).toHaveText('Unknown value (invite)');
  await expect(settings.getByLabel('4: unknown value')).toBeChecked();
  await settings.getByRole('button', { name: 'Save the settings' }).click();
  await expect(subscriptions).toHaveAccessibleDescription(/Invalid option/);
  await expect(
    settings.getByText('Invalid option: expected one of "0"|"1"|"2"|"3".'),
  ).toBeVisible();
  expect((await apiAs(server, key).accounts.get(alpha.id)).subscriptions).toBe('invite');
});

test('over the allowance, the banner says so from Retry-After alone', async ({ page, server }) => {
  // Spec §8: 3 × an address book of 2 = 6 objects an hour.
  const tiny = await createAccount(server, uniqueName('tiny'), { maxContacts: 2 });
  const { key } = await createKey(server, { account: tiny.name });
  const api = apiAs(server, key);
  await api.contacts.create({ firstname: 'Tim', emails: [`tim@${tiny.name}.example`] });
  // A minute before the hour's end at least: the banner is checked before the reset.
  const refused = await useUpAllowance(() => api.contacts.list(), 60_000);
  expect(refused.limit, 'no X-RateLimit-Limit').toBeNull();

  // A global key signs in (the tiny account's own key is refused until the reset).
  const { key: globalKey } = await createKey(server, 'global');
  await signInWithKey(page, globalKey, { path: `/a/${tiny.id}/contacts` });
  const banner = page.getByRole('alert').filter({ hasText: 'Rate limit reached' });
  await expect(banner).toContainText('The hourly API allowance for this account is used up.');
  // Retry-After, passed through by the gateway: within the window the server counts (an hour at most).
  const reset = Date.parse((await banner.locator('time').getAttribute('datetime')) ?? '');
  expect(reset).toBeGreaterThan(Date.now());
  expect(reset).toBeLessThanOrEqual(Date.now() + 3_600_000);
});

test('the Held page says the server does not offer a held queue', async ({ page, server }) => {
  const account = await accountWithList(server, 'held');
  await signInWithKey(page, account.key, { path: '/held' });
  await expect(page.getByRole('heading', { level: 1, name: 'Held messages' })).toBeVisible();
  await expect(page.getByText('This server does not offer a held-message queue')).toBeVisible();
});

test('the Requests page says the server does not offer a queue of join and leave requests', async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'asks');
  await signInWithKey(page, account.key, { path: '/requests' });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Requests to join and leave' }),
  ).toBeVisible();
  await expect(
    page.getByText('This server does not offer a queue of join and leave requests'),
  ).toBeVisible();
  // Nor a count beside the navigation's item.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }),
  ).toHaveText('Requests');
});

test('the Custom fields page says the server does not offer custom fields; the navigation does not offer it', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'fields', ['Ada']);
  await signInWithKey(page, account.key, { path: '/fields' });
  await expect(page.getByRole('heading', { level: 1, name: 'Custom fields' })).toBeVisible();
  await expect(page.getByText('This server does not offer custom field definitions')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Custom fields' }),
  ).toHaveCount(0);
});
