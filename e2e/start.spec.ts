import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { captureOutput, findFreePort, repoRoot, stop } from './fixtures/server.ts';

/**
 * Issue 15 item 5, one way in: `npm start` (scripts/start.ts, after the build) serves the dashboard
 * through the gateway in front of its own server, so a person signs in as a gateway session: the
 * server's sign-in page, then only a session cookie in the browser.
 */
test('npm start: the dashboard through the in-process gateway, signed in at the server, no token in the browser', async ({
  page,
}) => {
  test.slow();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'listkeeper-start-'));
  const port = await findFreePort();
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  try {
    await expect.poll(output, { timeout: 90_000 }).toContain('Listkeeper is running');
    const url = `http://localhost:${port}`;
    expect(output()).toContain(`Open ${url}/ in your browser.`);
    const [, username, password] = /\n {4}(admin@demo\.example) +(\S+)\n/.exec(output()) ?? [];
    expect(username).toBeDefined();
    const apiOrigin = /the API itself is at (http:\/\/127\.0\.0\.1:\d+)\/api\/2\//.exec(
      output(),
    )?.[1];
    expect(apiOrigin).toBeDefined();

    const requests: string[] = [];
    const authorizations: string[] = [];
    page.context().on('request', (request) => {
      requests.push(request.url());
      if (request.headers()['authorization']) authorizations.push(request.url());
    });
    await page.goto(`${url}/contacts`);
    await expect(page).toHaveURL(`${url}/sign-in?next=%2Fcontacts`);
    await page.getByRole('link', { name: 'Sign in with your account at Listkeeper' }).click();
    // The server's own sign-in page; the gateway is its first-party client: consent is not asked.
    await expect(page).toHaveURL(new RegExp(`^${apiOrigin}/api/2/oauth/login/`));
    await page.getByLabel('Username').fill(username ?? '');
    await page.getByLabel('Password').fill(password ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${url}/contacts`);
    await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('at Listkeeper');

    // The browser holds a session cookie it cannot read, and sends no credential of its own.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const cookies = await page.context().cookies(url);
    expect(cookies.find((cookie) => cookie.name === 'listkeeper-session')).toMatchObject({
      httpOnly: true,
    });
    const storage = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(storage).not.toMatch(/token|Bearer|lk[a-z]?_/i);
    expect(authorizations).toEqual([]);
    // The page's own requests go to its origin; the server is visited only for its sign-in pages.
    for (const request of requests) {
      const { origin, pathname } = new URL(request);
      if (origin === url) continue;
      expect(origin, request).toBe(apiOrigin);
      expect(pathname, request).toMatch(
        /^\/api\/2\/oauth\/(authorize|login|consent)\/$|^\/api\/2\/oauth\/pages\.css$/,
      );
    }
  } finally {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  }
});
