import type { Page } from '@playwright/test';
import {
  accountWithContacts,
  expect,
  expectNoSecretStored,
  signInOnServerPage,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import type { RunningServer } from './fixtures/server.ts';

const PASSWORD = 'correct horse battery staple';

async function createUser(server: RunningServer, account: string, permissions: string[] = []) {
  const username = `${uniqueName('person')}@example.com`;
  const args = ['user', 'create', '--account', account, '--username', username];
  for (const permission of permissions) args.push('--permission', permission);
  await server.cli(args, { stdin: `${PASSWORD}\n` });
  return username;
}

/** The tokens the server hands out, seen on the wire, to prove the browser stores none of them. */
function watchTokens(page: Page): string[] {
  const tokens: string[] = [];
  page.on('response', async (response) => {
    if (
      !/\/api\/2\/oauth\/(token|refresh)\/$/.test(new URL(response.url()).pathname) ||
      !response.ok()
    )
      return;
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    for (const name of ['access_token', 'refresh_token']) {
      if (typeof body[name] === 'string') tokens.push(body[name]);
    }
  });
  return tokens;
}

/** Requests for the server's login form: a reload must not need one. */
function watchLoginForms(page: Page): string[] {
  const forms: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/2/oauth/login/')
      forms.push(request.url());
  });
  return forms;
}

const signInOnServer = (page: Page, username: string) =>
  signInOnServerPage(page, username, PASSWORD);

test('OAuth sign-in as a person: server login, back in the app, reload without the password, sign out', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'oauth', ['Olive']);
  const username = await createUser(server, account.name);
  const tokens = watchTokens(page);
  const loginForms = watchLoginForms(page);

  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcontacts$/);
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServer(page, username);

  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('cell', { name: `Olive ${account.name}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(tokens.length).toBeGreaterThanOrEqual(2);
  // SECURITY.md 10: tokens in memory only; sessionStorage holds no token either.
  await expectNoSecretStored(page, tokens);
  expect(new URL(page.url()).search).toBe('');

  // A reload re-runs the authorization request; the login session answers without a password.
  const formsBefore = loginForms.length;
  await page.reload();
  await expect(page.getByRole('cell', { name: `Olive ${account.name}` })).toBeVisible();
  await expect(page).toHaveURL(/\/contacts$/);
  expect(loginForms.length).toBe(formsBefore);
  await expectNoSecretStored(page, tokens);

  // Signing out ends the server's session too: the next sign-in asks for the password again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to Listkeeper' }),
  ).toBeVisible();
  await expect(page.getByText('You have signed out.')).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await expect(page).toHaveURL(/\/api\/2\/oauth\/login\//);
  await expect(page.getByLabel('Password')).toBeVisible();
});

test('the access token is refreshed before it expires, and the new one is used', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'refresh', ['Rosa']);
  const username = await createUser(server, account.name);
  await page.clock.install();
  const tokens = watchTokens(page);
  // The Authorization of every API call the pages make (the OAuth endpoints apart).
  const bearers: string[] = [];
  page.on('request', (request) => {
    const authorization = request.headers()['authorization'];
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/2/') && !path.startsWith('/api/2/oauth/') && authorization)
      bearers.push(authorization);
  });

  await page.goto('/sign-in?next=%2Flists');
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServer(page, username);
  // The lists must have arrived before the clock jumps: an answer that lands after the jump is
  // fresh at the fake time, so coming back to Lists would ask nothing (seen in CI).
  await expect(page.getByText('No lists yet.')).toBeVisible();
  await expect.poll(() => tokens.length).toBe(2);

  // The server's tokens last 15 minutes; the dashboard renews them a minute early, unprompted.
  const refreshed = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/2/oauth/refresh/',
  );
  await page.clock.fastForward('14:01');
  expect((await refreshed).status()).toBe(200);
  await expect.poll(() => tokens.length).toBe(4);
  const [firstAccess, , secondAccess] = tokens;
  expect(secondAccess).not.toBe(firstAccess);

  // Past the first token's expiry, requests carry the new one and still work.
  const sinceExpiry = bearers.length;
  await page.clock.fastForward('02:00');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contacts' })
    .click();
  await expect(page.getByRole('cell', { name: `Rosa ${account.name}` })).toBeVisible();
  const beforeLists = bearers.length;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await expect(page.getByText('No lists yet.')).toBeVisible();
  // The stale lists are asked for again. Every call since the expiry carries a refreshed token,
  // not the expired first one. (Which one: on a loaded machine the fake clock's jumps have let a
  // second refresh in, one after the other, before the poll read the list.)
  await expect.poll(() => bearers.length).toBeGreaterThan(beforeLists);
  const refreshedAccess = () => tokens.filter((_, index) => index >= 2 && index % 2 === 0);
  await expect
    .poll(() =>
      bearers.slice(sinceExpiry).filter((bearer) => !refreshedAccess().includes(bearer.slice(7))),
    )
    .toEqual([]);
  await expectNoSecretStored(page, tokens);
});

test('declining at the consent step lands on the "access was not granted" page', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'nogrant', ['Nina']);
  // limit_lists alone allows no API area: the consent page can only send the person back.
  const username = await createUser(server, account.name, ['limit_lists']);
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServer(page, username);
  await expect(
    page.getByRole('heading', { level: 1, name: /^Allow .* to use your account\?$/ }),
  ).toBeVisible();
  await page.getByRole('button', { name: /^(Deny|Return to)/ }).click();
  await expect(page).toHaveURL(/\/auth\/consent-denied$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Access was not granted' }),
  ).toBeVisible();
  await expectNoSecretStored(page, []);
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});

test('a session ended at the server leads to the "session expired" page', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'ended', ['Edna']);
  const username = await createUser(server, account.name);
  const tokens = watchTokens(page);
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServer(page, username);
  await expect(page.getByRole('cell', { name: `Edna ${account.name}` })).toBeVisible();

  // Elsewhere, the grant is revoked (the server's sign-out with the access token).
  const accessToken = tokens[0] ?? '';
  const answer = await fetch(`${server.url}/api/2/oauth/logout/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(answer.status).toBe(200);

  // The next request through the gateway finds it out: the one a click on Lists makes, unless one
  // of the shell's own background reads (the navigation's counts) finds it first and the page
  // has left already; either way the page is the "session expired" one.
  const lists = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' });
  await Promise.race([
    lists.click().catch(() => undefined),
    page.waitForURL(/\/auth\/session-expired$/),
  ]);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Your session has expired' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/session-expired$/);
});

test('without OAuth in /config.json, the sign-in page says so and the key still works', async ({
  page,
  server,
}) => {
  await page.route('**/config.json', (route) => route.fulfill({ status: 404, body: 'Not found' }));
  const account = await accountWithContacts(server, 'noconfig', ['Nora']);
  await page.goto('/sign-in');
  await expect(page.getByRole('note')).toContainText('OAuth sign-in is unavailable');
  await expect(
    page.getByRole('button', { name: 'Sign in with your Listkeeper account' }),
  ).toHaveCount(0);
  await page.getByLabel('API key', { exact: true }).fill(account.key);
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await expect(page.getByRole('cell', { name: `Nora ${account.name}` })).toBeVisible();
});
