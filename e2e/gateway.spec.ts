import type { Page } from '@playwright/test';
import { accountWithContacts, browserStorage, uniqueName } from './fixtures/dashboard.ts';
import { expect, test, type RunningGateway } from './fixtures/gateway.ts';
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
    expect(pathname, url).toMatch(/^\/api\/2\/oauth\/(authorize|login|consent)\/$|^\/api\/2\/oauth\/pages\.css$/);
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
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' })).toBeVisible();
  expect(await gateway.heldCredentials()).toEqual([]);
  await second.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
  await expect(second.getByRole('heading', { level: 1, name: 'Your session has expired' })).toBeVisible();
  await second.goto('/contacts');
  await expect(second).toHaveURL(/\/sign-in\?next=%2Fcontacts$/);
});
