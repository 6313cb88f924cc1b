import { expectNoAxeViolations } from './fixtures/axe.ts';
import { accountWithContacts, apiAs, expect, signInWithKey, test } from './fixtures/dashboard.ts';

/**
 * Issue 27 item 4, its second half: presets are named by what they allow (spec §2.6 has no
 * read-only permission), and the form shows what a key with the chosen permissions opens before it
 * is created; signed in with that key, the dashboard opens exactly that.
 */

test.use({ dashboardMode: 'gateway' });

test('the presets say what they allow; before a key is created the form shows what it opens, and the key opens that', async ({
  page,
  browser,
  server,
}) => {
  const account = await accountWithContacts(server, 'presets', ['Ada']);
  await apiAs(server, account.key).lists.create({ name: 'news' });
  await signInWithKey(page, account.key, { path: '/administrators' });
  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('A program, with an API key').check();
  await create.getByLabel('Description').fill('Moderation desk');

  const presets = create.getByRole('group', { name: 'Permission presets' });
  await expect(presets.getByRole('button')).toHaveText([
    'Moderate held messages',
    'Moderate and send to lists',
    'Manage list members',
    'Manage lists, members and moderation',
    'Everything (superadmin)',
  ]);
  await expect(presets.getByRole('button', { name: 'Read-only' })).toHaveCount(0);

  const reach = create.getByRole('region', { name: 'What a key with these permissions opens' });
  // Nothing ticked yet: nothing opens.
  await expect(reach).toContainText('Nothing: no page, and no operation of the API.');
  // audit alone, what the old "Read-only" preset gave: the audit log only, no contact or list.
  const administration = create.getByRole('group', { name: /^Permissions: administration/ });
  await administration.getByRole('checkbox', { name: 'audit', exact: true }).check();
  await expect(reach).toContainText('Pages: Audit.');
  await expect(reach.getByRole('listitem')).toHaveText(['The audit log: read']);

  await presets.getByRole('button', { name: 'Moderate held messages' }).click();
  await expect(reach).toContainText('Pages: Lists, Messages, Held messages.');
  await expect(reach.getByRole('listitem')).toHaveText([
    'Lists and their settings: read',
    'Messages: read, delete, show remote images',
    'Held messages: read, see the source as received, approve, reject, discard',
  ]);
  await expectNoAxeViolations(page, 'the new-key form with what it opens');

  await create.getByRole('button', { name: 'Create the API key' }).click();
  const retrieve = page.getByRole('dialog', { name: 'API key for Moderation desk' });
  await retrieve.getByRole('button', { name: 'Retrieve a new key' }).click();
  const key = (await retrieve.getByTestId('retrieved-key').textContent()) ?? '';
  await retrieve.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /Moderation desk/ })).toContainText(
    'Moderate held messages: approval',
  );

  // Signed in with it: the pages the form named, and no other.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const desk = await other.newPage();
  await signInWithKey(desk, key);
  await expect(desk).toHaveURL(/\/held$/);
  await expect(desk.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
    'Lists',
    'Messages',
    /^Held/,
  ]);
  await other.close();
});
