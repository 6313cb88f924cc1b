import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import {
  accountWithContacts,
  apiAs,
  browserStorage,
  createKey,
  signInWithKey,
  uniqueName,
} from './fixtures/dashboard.ts';
import { expect, test, type RunningGateway } from './fixtures/gateway.ts';
import { accountWithList, sendMessage, startTracker } from './fixtures/messages.ts';
import type { RunningServer } from './fixtures/server.ts';

/**
 * Issue 15: the dashboard through `listkeeper dashboard`, a confidential OAuth client in front of
 * `listkeeper serve`. SECURITY.md 9–11 and 25–28 in the browser.
 */
const PASSWORD = 'correct horse battery staple';

async function createUser(server: RunningServer, account: string) {
  const username = `${uniqueName('person')}@example.com`;
  await server.cli(['user', 'create', '--account', account, '--username', username], {
    stdin: `${PASSWORD}\n`,
  });
  return username;
}

/** Every URL the page requests, in every tab of its context. */
function watchRequests(page: Page): string[] {
  const urls: string[] = [];
  page.context().on('request', (request) => urls.push(request.url()));
  return urls;
}

/** The upstream's own sign-in and consent pages (a confidential third-party client: consent shows). */
async function signInAtUpstream(page: Page, server: RunningServer, username: string) {
  await expect(page).toHaveURL(new RegExp(`^${server.url}/api/2/oauth/login/`));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/api/2/oauth/consent/`));
  await page.getByRole('button', { name: 'Allow' }).click();
}

/**
 * SECURITY.md 10 and 11: no credential the gateway holds is in the page's storage, its readable
 * cookies or any URL it requested; the one cookie is HttpOnly and SameSite.
 */
async function expectNothingHeldByTheBrowser(page: Page, gateway: RunningGateway, urls: string[]) {
  const secrets = await gateway.heldCredentials();
  expect(secrets.length).toBeGreaterThan(0);
  const stores = await browserStorage(page);
  const readable = await page.evaluate(() => document.cookie);
  expect(readable).toBe('');
  const cookies = await page.context().cookies(gateway.url);
  expect(cookies.map((cookie) => cookie.name)).toContain('listkeeper-session');
  for (const cookie of cookies) {
    expect(cookie, cookie.name).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  }
  const places = {
    localStorage: JSON.stringify(stores.localStorage),
    sessionStorage: JSON.stringify(stores.sessionStorage),
    indexedDB: JSON.stringify(stores.indexedDB),
    cookies: JSON.stringify(stores.cookies),
    urls: urls.join('\n'),
  };
  for (const secret of secrets) {
    for (const [place, text] of Object.entries(places))
      expect(text.includes(secret), `a credential is in ${place}`).toBe(false);
  }
}

test('OAuth sign-in through the upstream’s login and consent pages; reload, new tab, sign-out', async ({
  page,
  server,
  gateway,
}) => {
  // Two processes, the upstream's pages, three tabs: more than the default minute on a busy machine.
  test.slow();
  const account = await accountWithContacts(server, 'gw-oauth', ['Olive']);
  const username = await createUser(server, account.name);
  const urls = watchRequests(page);

  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcontacts$/);
  const upstreamName = new URL(server.url).host;
  await page.getByRole('link', { name: `Sign in with your account at ${upstreamName}` }).click();
  await signInAtUpstream(page, server, username);

  await expect(page).toHaveURL(`${gateway.url}/contacts`);
  await expect(page.getByRole('cell', { name: `Olive ${account.name}` })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(`at ${upstreamName}`);
  await expectNothingHeldByTheBrowser(page, gateway, urls);

  // The page's requests go to its own origin, and to the upstream's sign-in pages only.
  for (const url of urls) {
    const { origin, pathname } = new URL(url);
    if (origin === gateway.url) continue;
    expect(origin, url).toBe(server.url);
    expect(pathname, url).toMatch(
      /^\/api\/2\/oauth\/(authorize|login|consent)\/$|^\/api\/2\/oauth\/pages\.css$/,
    );
  }
  const signedInAt = urls.length;

  // A reload, a second tab and a Ctrl-click stay signed in, without the upstream.
  await page.reload();
  await expect(page.getByRole('cell', { name: `Olive ${account.name}` })).toBeVisible();
  const second = await page.context().newPage();
  await second.goto('/lists');
  await expect(second.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  const popup = page.context().waitForEvent('page');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Messages' })
    .click({ modifiers: ['ControlOrMeta'] });
  const third = await popup;
  await expect(third.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await third.close();
  for (const url of urls.slice(signedInAt)) expect(new URL(url).origin, url).toBe(gateway.url);
  await expectNothingHeldByTheBrowser(page, gateway, urls);

  // Sign-out ends the session everywhere: the other tab's next request finds it over.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
  expect(await gateway.heldCredentials()).toEqual([]);
  await second
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contacts' })
    .click();
  await expect(
    second.getByRole('heading', { level: 1, name: 'Your session has expired' }),
  ).toBeVisible();
  await second.goto('/contacts');
  await expect(second).toHaveURL(/\/sign-in\?next=%2Fcontacts$/);
});

test('an API key typed once: the pages do their main job, and the key never reaches the browser', async ({
  page,
  server,
  gateway,
}) => {
  test.slow();
  const account = await accountWithContacts(server, 'gw-key', ['Ann']);
  await apiAs(server, account.key).lists.create({ name: 'news', description: 'Monthly news' });
  const urls = watchRequests(page);
  const authorizations: string[] = [];
  page.context().on('request', (request) => {
    const header = request.headers()['authorization'];
    if (header) authorizations.push(header);
  });

  await signInWithKey(page, account.key, { path: '/contacts' });
  await expect(page.getByRole('banner')).toContainText(`API key at ${new URL(server.url).host}`);
  await expect(page.getByRole('cell', { name: `Ann ${account.name}` })).toBeVisible();

  // Contacts: create one.
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByLabel('First name').fill('Carla');
  await page.getByLabel('Surname').fill('Diaz');
  await page.getByLabel('Address', { exact: true }).fill(`carla@${account.name}.example`);
  await page.getByRole('button', { name: 'Create the contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Carla Diaz' })).toBeVisible();

  // List settings: change and save.
  await page.goto('/lists/news');
  await page
    .getByRole('region', { name: 'General', exact: true })
    .getByLabel('Description')
    .fill('Through the gateway');
  await page.getByRole('button', { name: 'Review and save' }).click();
  await page
    .getByRole('dialog', { name: 'Save these changes?' })
    .getByRole('button', { name: 'Save the changes' })
    .click();
  await expect(page.getByText('All changes saved.')).toBeVisible();
  expect((await apiAs(server, account.key).lists.get('news')).description).toBe(
    'Through the gateway',
  );

  // Messages: send to the list.
  await page.goto('/messages/new');
  await page.getByLabel('List').selectOption('news');
  await page.getByLabel('Subject').fill('Hello through the gateway');
  await page.getByLabel('Plain text').fill('Hello.');
  await page.getByRole('button', { name: 'Send to the list' }).click();
  await page
    .getByRole('dialog', { name: 'Send to news?' })
    .getByRole('button', { name: /^Send to \d+ members?$/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued' })).toBeVisible();

  // Administrators: the table of the account's administrators.
  await page.goto('/administrators');
  await expect(page.getByRole('table').getByText('superadmin').first()).toBeVisible();

  // SECURITY.md 10, 11: the page never sent an Authorization header, and holds no key.
  expect(authorizations).toEqual([]);
  await expectNothingHeldByTheBrowser(page, gateway, urls);
  for (const url of urls) expect(new URL(url).origin, url).toBe(gateway.url);
});

test('a session survives a restart, and another gateway process on the same DATA_DIR shares it and ends it', async ({
  page,
  server,
  gateway,
}) => {
  test.slow();
  const account = await accountWithContacts(server, 'gw-restart', ['Rosa']);
  await signInWithKey(page, account.key, { path: '/contacts' });
  await expect(page.getByRole('cell', { name: `Rosa ${account.name}` })).toBeVisible();

  // SECURITY.md 25: the session is in DATA_DIR, not in the process.
  await gateway.restart();
  await page.reload();
  await expect(page.getByRole('cell', { name: `Rosa ${account.name}` })).toBeVisible();

  // Another gateway process on the same DATA_DIR knows the session, and its sign-out ends it here.
  const other = await gateway.startAnother();
  const session = await page.request.get(`${other.url}/auth/session`);
  expect(await session.json()).toMatchObject({ signed_in: true, method: 'key', global: false });
  const signOut = await page.request.post(`${other.url}/auth/logout`, {
    headers: { origin: gateway.url, 'x-listkeeper-request': '1' },
  });
  expect(signOut.status()).toBe(200);
  await other.stop();
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcontacts$/);
});

test('a global key switches accounts through the gateway; the accounts page lists the group', async ({
  page,
  server,
}) => {
  test.slow();
  const alpha = await accountWithContacts(server, 'gw-alpha', ['Ada']);
  const beta = await accountWithContacts(server, 'gw-beta', ['Brian']);
  const { key } = await createKey(server, 'global');
  await signInWithKey(page, key, { path: `/a/${alpha.id}/contacts` });
  await expect(page.getByRole('banner')).toContainText('Global API key at');
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
  await expect(page.getByRole('link', { name: alpha.name, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: beta.name, exact: true })).toBeVisible();
});

test('the proxy refuses another host, a path that leaves /api/2/ and a cross-site POST', async ({
  page,
  server,
  gateway,
  browserWatch,
}) => {
  test.slow();
  browserWatch.allowConsoleError(/status of 40[03]/);
  const account = await accountWithContacts(server, 'gw-refuse', ['Rita']);
  await signInWithKey(page, account.key, { path: '/contacts' });
  const port = new URL(gateway.url).port;

  // Another host, as an absolute request target: answered by the gateway, never forwarded.
  const absolute = await rawRequest(
    port,
    `GET ${server.url}/api/2/contacts/ HTTP/1.1\r\nHost: localhost\r\nx-listkeeper-request: 1\r\nConnection: close\r\n\r\n`,
  );
  expect(absolute).toMatch(/^HTTP\/1\.1 400/);
  expect(absolute).not.toContain('Rita');

  // Paths that leave /api/2/, with the session cookie and the dashboard's header.
  const headers = { 'x-listkeeper-request': '1' };
  for (const path of [
    '/api/2/%2e%2e/%2e%2e/config.json',
    '/api/2/contacts/..%2f..%2fconfig.json',
    '/api/2/%5c..%5cconfig.json',
    '/api/2/%252e%252e/config.json',
  ]) {
    const answer = await rawRequest(
      port,
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nCookie: ${await sessionCookie(page)}\r\nx-listkeeper-request: 1\r\nConnection: close\r\n\r\n`,
    );
    expect(answer, path).toMatch(/^HTTP\/1\.1 400/);
  }
  expect((await page.request.get('/api/2/contacts/', { headers })).status()).toBe(200);

  // A forged POST from a page on another site: refused, nothing created.
  const evil = await crossSitePage(`${gateway.url}/api/2/contacts/`);
  try {
    await page.goto(evil.url);
    await page.getByRole('button', { name: 'Win a prize' }).click();
    await expect(page.locator('body')).toContainText('is_error');
  } finally {
    await evil.close();
  }
  const forged = await page.request.post('/api/2/contacts/', {
    headers: { origin: 'http://evil.example', 'x-listkeeper-request': '1' },
    form: { firstname: 'Mallory', emails: 'mallory@evil.example' },
  });
  expect(forged.status()).toBe(403);
  const withoutHeader = await page.request.post('/api/2/contacts/', {
    headers: { origin: gateway.url },
    form: { firstname: 'Mallory', emails: 'mallory@evil.example' },
  });
  expect(withoutHeader.status()).toBe(403);
  expect((await apiAs(server, account.key).contacts.list({ search: 'Mallory' })).count).toBe(0);
});

test('"show images" through the gateway against the spec-only upstream: the message\'s own images only, no private address', async ({
  page,
  server,
}) => {
  test.slow();
  const tracker = await startTracker();
  try {
    const account = await accountWithList(server, 'gw-images');
    const t = tracker.origin;
    const privateImage = `http://127.0.0.2:${new URL(t).port}/private.png`;
    const subject = uniqueName('Gateway newsletter');
    const message = await sendMessage(account.api, {
      list: 'news',
      subject,
      content_plain: 'Hello',
      content_html: `<p>Hello readers</p><img src="${t}/banner.png" alt="Banner"><img src="${t}/pixel.gif?r=1&amp;c=2" alt=""><img src="${privateImage}" alt="Private">`,
    });
    const browserToTracker: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(t) || request.url().startsWith('http://127.0.0.2'))
        browserToTracker.push(request.url());
    });
    await signInWithKey(page, account.key, { path: `/messages/${message.id}` });
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.getByText('3 remote images are blocked')).toBeVisible();
    await page.getByRole('button', { name: 'Show images' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'fetched through the server' }),
    ).toHaveText('2 images shown, fetched through the server. 1 image could not be fetched.');
    const frame = page.frameLocator('iframe[title="The message as HTML"]');
    await expect(frame.getByRole('img', { name: 'Banner' })).toHaveAttribute(
      'src',
      /^data:image\/png;base64,/,
    );
    await page.getByText('Why', { exact: true }).click();
    await expect(page.getByRole('listitem').filter({ hasText: privateImage })).toContainText(
      'private, loopback or reserved',
    );
    // The gateway fetched the two; the browser asked neither host, and nothing asked the private one.
    expect([...tracker.requests].sort()).toEqual(['/banner.png', '/pixel.gif?r=1&c=2']);
    expect(browserToTracker).toEqual([]);

    // An address the message does not hold is refused, before any request to it.
    const headers = { 'x-listkeeper-request': '1' };
    const ask = (url: string) =>
      page.request.get(
        `/gateway/message-image?message=${message.id}&url=${encodeURIComponent(url)}`,
        { headers },
      );
    const other = await ask(`${t}/not-in-the-message.png`);
    expect([other.status(), await other.json()]).toEqual([
      400,
      { is_error: true, message: 'url: is not an address this message refers to' },
    ]);
    expect(tracker.requests).not.toContain('/not-in-the-message.png');
    const refused = await ask(privateImage);
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /private, loopback or reserved/,
    );
  } finally {
    await tracker.close();
  }
});

async function sessionCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'listkeeper-session');
  return `listkeeper-session=${cookie?.value ?? ''}`;
}

/** One HTTP/1.1 exchange as written, to send what browsers and fetch would normalize away. */
function rawRequest(port: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** A page on another site (127.0.0.1, not localhost) with a form that posts to the gateway. */
async function crossSitePage(target: string) {
  const html = `<!doctype html><title>Prize</title><form method="post" action="${target}"><input type="hidden" name="firstname" value="Mallory"><input type="hidden" name="emails" value="mallory@evil.example"><button>Win a prize</button></form>`;
  const listener = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(html),
  );
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise<void>((resolve) => listener.close(() => resolve())),
  };
}
