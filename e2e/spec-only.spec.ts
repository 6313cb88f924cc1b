import { RateLimitedError } from '../src/api/errors.ts';
import {
  accountWithClub,
  accountWithContacts,
  apiAs,
  createAccount,
  createKey,
  expect,
  signInWithKey,
  test,
  uniqueName,
  watchContactReads,
} from './fixtures/dashboard.ts';
import { accountWithList, sendMessage, startTracker } from './fixtures/messages.ts';

/**
 * Issue 15: the dashboard against a server that offers exactly spec v2 (`EXTENSIONS=off`): no
 * /config.json (so no OAuth sign-in, key sign-in only), no caller, image proxy, key_expiry or
 * X-RateLimit-* headers. Every page does its main job, says where an extension is missing, and
 * logs no console error (the fixture fails the test on one; the browser's log of a 4xx is allowed,
 * as the dashboard probes for the extensions).
 */
test.use({ serverEnv: { EXTENSIONS: 'off', IMAGE_PROXY_ALLOW_PRIVATE: '1' } });

test('the server offers no extension, and the sign-in page offers the API key without /config.json', async ({
  page,
  server,
}) => {
  expect((await page.request.get(`${server.url}/config.json`)).status()).toBe(404);
  // No metadata (RFC 8414): that path is one of the dashboard's own pages, the app shell.
  const metadata = await page.request.get(`${server.url}/.well-known/oauth-authorization-server`);
  expect(metadata.headers()['content-type']).toMatch(/^text\/html/);
  const account = await accountWithContacts(server, 'plain', ['Ada', 'Grace']);
  const caller = await page.request.get(`${server.url}/api/2/caller/`, {
    headers: { authorization: `Bearer ${account.key}` },
  });
  expect(caller.status()).toBe(404);
  expect(await caller.json()).toEqual({
    is_error: true,
    message: 'The API request does not exist',
  });

  await page.goto('/');
  await expect(page.getByRole('note')).toContainText(
    'OAuth sign-in is unavailable: the server answered 404 for /config.json. Sign in with an API key instead.',
  );
  await signInWithKey(page, account.key, { path: '/contacts' });

  // Contacts: the table, and a new contact.
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

test('list settings are read and saved', async ({ page, server }) => {
  const account = await accountWithList(server, 'settings');
  await signInWithKey(page, account.key, { path: '/lists/news' });
  await expect(page.getByRole('heading', { level: 1, name: 'List news' })).toBeVisible();
  const general = page.getByRole('region', { name: 'General', exact: true });
  await general.getByLabel('Description').fill('Monthly news');
  await page.getByRole('button', { name: 'Review and save' }).click();
  const review = page.getByRole('dialog', { name: 'Save these changes?' });
  await review.getByRole('button', { name: 'Save the changes' }).click();
  await expect(review).toBeHidden();
  await expect
    .poll(async () => (await account.api.lists.get('news')).description)
    .toBe('Monthly news');
});

test('messages are listed and read; "show images" says the server cannot fetch them', async ({
  page,
  server,
}) => {
  const tracker = await startTracker();
  try {
    const account = await accountWithList(server, 'archive');
    const subject = uniqueName('Newsletter');
    await sendMessage(account.api, {
      list: 'news',
      subject,
      content_plain: 'Hello',
      content_html: `<p>Hello readers</p><img src="${tracker.origin}/banner.png" alt="Banner">`,
    });
    await signInWithKey(page, account.key, { path: '/messages' });
    await page.getByRole('table').getByRole('link', { name: subject }).click();
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    const frame = page.frameLocator('iframe[title="The message as HTML"]');
    await expect(frame.getByText('Hello readers')).toBeVisible();
    await page.getByRole('button', { name: 'Show images' }).click();
    await expect(page.getByText('This server cannot show remote images')).toBeVisible();
    await expect(frame.getByRole('img', { name: 'Banner' })).not.toHaveAttribute('src', /.+/);
    expect(tracker.requests, 'nothing fetched the image').toEqual([]);
  } finally {
    await tracker.close();
  }
});

test('administrators: the page says what the server does not report, and creates an administrator', async ({
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
});

test('accounts: a global key lists, edits and opens the accounts of the group', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'group', ['Gina']);
  const { key } = await createKey(server, 'global');
  expect(await apiAs(server, key).accounts.get(account.id)).not.toHaveProperty('max_contacts');
  await signInWithKey(page, key);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Accounts' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: account.name, exact: true }) });
  await row.getByRole('button', { name: `Settings of ${account.name}` }).click();
  const settings = page.getByRole('dialog', { name: `Settings of ${account.name}` });
  await settings.getByLabel('Description').fill('The group account');
  await settings.getByRole('button', { name: 'Save the settings' }).click();
  await expect(settings).toBeHidden();
  await expect(row).toContainText('The group account');
  await row.getByRole('link', { name: account.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${account.id}/contacts$`));
  await expect(page.getByRole('cell', { name: `Gina ${account.name}` })).toBeVisible();
});

test('over the allowance, the banner says so from Retry-After alone', async ({ page, server }) => {
  // Spec §8: 3 × an address book of 2 = 6 objects an hour.
  const tiny = await createAccount(server, uniqueName('tiny'), { maxContacts: 2 });
  const { key } = await createKey(server, { account: tiny.name });
  const api = apiAs(server, key);
  await api.contacts.create({ firstname: 'Tim', emails: [`tim@${tiny.name}.example`] });
  let refused: RateLimitedError | null = null;
  for (let i = 0; i < 10 && !refused; i++) {
    try {
      await api.contacts.list();
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      refused = error;
    }
  }
  expect(refused, 'the allowance was used up').not.toBeNull();
  expect(refused?.limit, 'no X-RateLimit-Limit').toBeNull();

  // A global key signs in (the tiny account's own key is refused until the reset).
  const { key: globalKey } = await createKey(server, 'global');
  await signInWithKey(page, globalKey, { path: `/a/${tiny.id}/contacts` });
  const banner = page.getByRole('alert').filter({ hasText: 'Rate limit reached' });
  await expect(banner).toContainText('The hourly API allowance for this account is used up.');
  // Retry-After: within the window the server counts (an hour at most).
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
