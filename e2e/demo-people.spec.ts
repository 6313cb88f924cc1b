import type { Page } from '@playwright/test';
import * as z from 'zod';
import { expect, signInOnServerPage, test } from './fixtures/dashboard.ts';
import { NARROWEST } from './fixtures/phone.ts';
import type { RunningServer } from './fixtures/server.ts';

/**
 * Issue 17 item 7: the demo's moderator and list-limited administrator sign in with the passwords
 * `listkeeper demo` prints, through the real OAuth login, and are shown only what they may do.
 */
const DemoOutput = z.object({
  people: z.array(z.object({ username: z.string(), password: z.string() })),
});

/** The demo, seeded once per server (a second run would give everyone new passwords). */
const seeded = new Map<string, Promise<Map<string, string>>>();
function demoPasswords(server: RunningServer) {
  let passwords = seeded.get(server.url);
  if (!passwords) {
    passwords = server.cli(['demo', '--contacts', '30']).then((output) => {
      const { people } = DemoOutput.parse(output);
      return new Map(people.map((person) => [person.username, person.password]));
    });
    seeded.set(server.url, passwords);
  }
  return passwords;
}

async function signInAs(page: Page, server: RunningServer, username: string) {
  const password = (await demoPasswords(server)).get(username);
  expect(password, `the demo prints a password for ${username}`).toBeDefined();
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServerPage(page, username, password ?? '');
}

test('the demo moderator lands on Held and sees only her two lists, no contacts or administrators', async ({
  page,
  server,
}) => {
  test.slow(); // the first test of a worker seeds the demo
  await signInAs(page, server, 'moderator@demo.example');
  await expect(page).toHaveURL(/\/held$/);
  await expect(page.getByRole('banner')).toContainText('Mona Moderator');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Held' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Messages' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Contacts' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Administrators' })).toHaveCount(0);

  await nav.getByRole('link', { name: 'Lists' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('link', { name: 'announcements' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'community' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'staff' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create list' })).toHaveCount(0);

  // On the narrowest phone the header still names her account: the name, not "Accoun…".
  await page.setViewportSize(NARROWEST);
  const label = page.getByRole('banner').getByText(/^Account\s*demo$/);
  await expect(label).toBeVisible();
  expect(await label.evaluate((p) => p.scrollWidth - p.clientWidth), 'the name is cut').toBe(0);
});

test('the demo list-limited administrator lands on its list’s members and sees only the community list', async ({
  page,
  server,
}) => {
  test.slow();
  await signInAs(page, server, 'community-admin@demo.example');
  // Issue 27 item 2: confined to community, it works in its members.
  await expect(page).toHaveURL(/\/lists\/community\/members$/);
  await expect(page.getByRole('banner')).toContainText('Lee Lister');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Contacts' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Held' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Messages' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Administrators' })).toHaveCount(0);
  // Its contacts are its list's members (the list filter offers only community).
  await nav.getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(/\/contacts\?.*list=community/);
  await expect(page.getByRole('link', { name: 'New contact' })).toBeVisible();

  await nav.getByRole('link', { name: 'Lists' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('link', { name: 'community' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'announcements' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'staff' })).toHaveCount(0);
});
