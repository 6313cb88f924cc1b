import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { captureOutput, findFreePort, repoRoot, stop } from './fixtures/server.ts';

/**
 * Issue 17 item 7: every credential `npm start` prints, with what it is for. Each person's role
 * line is matched here, and each person signs in with the printed password and lands where that
 * role works, under their own name; each key signs in as the key it says it is.
 */
const DEMO_PEOPLE = {
  'admin@demo.example': {
    role: /^superadmin of the demo account: everything, administrators included$/,
    name: 'Demo Administrator',
    lands: '/contacts',
  },
  'moderator@demo.example': {
    role: /^moderator of announcements and community: held and archived messages/,
    name: 'Mona Moderator',
    lands: '/held',
  },
  'community-admin@demo.example': {
    role: /^list-limited administrator of community only/,
    name: 'Lee Lister',
    // Confined to one list, they work in it: its members (issue 27 item 2, app/routes/home.tsx).
    lands: '/lists/community/members',
  },
  'support@demo.example': {
    role: /^support: contacts and memberships, no list settings or messages$/,
    name: 'Sam Support',
    lands: '/contacts',
  },
  'west-admin@demo.example': {
    role: /^superadmin of the demo-west account$/,
    name: 'Wes Turner',
    lands: '/contacts',
  },
  'operator@demo.example': {
    role: /^global operator: every account of the group, switching with `s`$/,
    name: 'Ola Operator',
    lands: /\/a\/\d+\/contacts$/,
  },
} as const;

/** The people block of the summary: `username  password` lines, each followed by its role line. */
function printedPeople(output: string) {
  const block = /usernames and passwords[^\n]*\n([\s\S]*?)\n\n/.exec(output)?.[1] ?? '';
  return [...block.matchAll(/^ {4}(\S+@\S+) +(\S+)\n {6,}(\S.*)$/gm)].map(
    ([, username = '', password = '', role = '']) => ({ username, password, role }),
  );
}

/** The keys block: each key on its line, what it is on the next. */
function printedKeys(output: string) {
  const block = /into the "API key" field:\n([\s\S]*?)\n\n/.exec(output)?.[1] ?? '';
  return [...block.matchAll(/^ {4}(\S+)\n {6}(\S.*)$/gm)].map(([, key = '', what = '']) => ({
    key,
    what,
  }));
}

/**
 * Issue 15 item 5, one way in: `npm start` (scripts/start.ts, after the build) serves the dashboard
 * through the gateway in front of its own server, so a person signs in as a gateway session: the
 * server's sign-in page, then only a session cookie in the browser.
 */
test('npm start: the dashboard through the in-process gateway, signed in at the server, no token in the browser; every printed credential works as it says', async ({
  page,
  browser,
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
    const people = printedPeople(output());
    expect(people.map((person) => person.username).sort()).toEqual(Object.keys(DEMO_PEOPLE).sort());
    for (const person of people) {
      expect(person.role, person.username).toMatch(
        DEMO_PEOPLE[person.username as keyof typeof DEMO_PEOPLE].role,
      );
    }
    const admin = people.find((person) => person.username === 'admin@demo.example');
    const username = admin?.username;
    const password = admin?.password;
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

    // Every other person, each in a browser of their own: the printed password signs them in, and
    // they land where their role works, named in the header.
    for (const person of people) {
      if (person === admin) continue;
      const expected = DEMO_PEOPLE[person.username as keyof typeof DEMO_PEOPLE];
      const context = await browser.newContext();
      const other = await context.newPage();
      await other.goto(`${url}/`);
      await other.getByRole('link', { name: 'Sign in with your account at Listkeeper' }).click();
      await other.getByLabel('Username').fill(person.username);
      await other.getByLabel('Password').fill(person.password);
      await other.getByRole('button', { name: 'Sign in' }).click();
      await expect(other).toHaveURL(
        typeof expected.lands === 'string' ? `${url}${expected.lands}` : expected.lands,
      );
      await expect(other.getByRole('banner')).toContainText(
        `${expected.name} (${person.username})`,
      );
      await context.close();
    }

    // The two keys, pasted into the sign-in page's "API key" field, are what their lines say.
    const keys = printedKeys(output());
    expect(keys.map((key) => key.what)).toEqual([
      'the account key of "demo": a superadmin of that account',
      'the global key: every account of the group (press s to switch accounts)',
    ]);
    for (const [index, { key }] of keys.entries()) {
      const context = await browser.newContext();
      const other = await context.newPage();
      await other.goto(`${url}/`);
      await other.getByLabel('API key', { exact: true }).fill(key);
      await other.getByRole('button', { name: 'Sign in with the key' }).click();
      const banner = other.getByRole('banner');
      const nav = other.getByRole('navigation', { name: 'Main' });
      if (index === 0) {
        await expect(banner).toContainText('API key “Demo account key”');
        await expect(banner).toContainText('Account demo');
        await expect(nav.getByRole('link', { name: 'Administrators' })).toBeVisible();
      } else {
        await expect(banner).toContainText('Global API key “Demo global key”');
        await expect(nav.getByRole('link', { name: 'Accounts' })).toBeVisible();
      }
      await context.close();
    }
  } finally {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  }
});
