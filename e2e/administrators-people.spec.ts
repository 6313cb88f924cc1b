import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import {
  createAccount,
  createKey,
  expect,
  signInOnServerPage,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';

const PASSWORD = 'a password of length';

/**
 * Issue 17 item 6: a person created on the administrators page can sign in with the password set
 * there; an API key for a program is made from a description and its key retrieved with an expiry
 * by default; the signed-in administrator's row is marked, and demoting or deleting it warns.
 */
test('administrators: a person who can sign in, a key for a program, and your own row', async ({
  page,
  server,
}) => {
  // One story from the first administrator to the person signing in: long on a loaded machine.
  test.setTimeout(180_000);
  const account = await createAccount(server, uniqueName('people'));
  const { key } = await createKey(server, { account: account.name });
  const username = `${uniqueName('pat')}@example.com`;

  await signInWithKey(page, key, { path: '/administrators' });
  await expect(page.getByRole('heading', { level: 1, name: 'Administrators' })).toBeVisible();
  // Your own entry, marked.
  const own = page.getByRole('row', { name: /\(you\)/ });
  await expect(own).toHaveCount(1);

  // A person, with a password to sign in and the contact permission.
  await page.getByRole('button', { name: 'New administrator' }).click();
  let create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('Username (email address)').fill(username);
  await create.getByLabel('First name').fill('Pat');
  // A new person has no password to keep: the hint says what an empty one means for them (the
  // reference server mails a link to choose one, issue 27 item 4).
  await expect(create.getByLabel('Password (to sign in)')).toHaveAccessibleDescription(
    /^Optional: leave it empty and they choose their own with the welcome email’s link\./,
  );
  await create.getByLabel('Password (to sign in)').fill('too short');
  await create.getByRole('checkbox', { name: 'contact', exact: true }).check();
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(
    create.getByText('The password needs at least 12 characters (the rule for passwords).'),
  ).toBeVisible();
  await create.getByLabel('Password (to sign in)').fill(PASSWORD);
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(username) })).toBeVisible();

  // A program's API key, from a description; its key is retrieved next, expiring by default.
  await page.getByRole('button', { name: 'New administrator' }).click();
  create = page.getByRole('dialog', { name: 'New administrator' });
  await create.getByLabel('A program, with an API key').check();
  await expect(create.getByLabel('Username (email address)')).toHaveCount(0);
  await expect(create.getByLabel('Password (to sign in)')).toHaveCount(0);
  await create.getByRole('button', { name: 'Create the API key' }).click();
  await expect(create.getByText('The description is required for an API key.')).toBeVisible();
  await create.getByLabel('Description').fill('Nightly export');
  await create.getByRole('checkbox', { name: 'contact', exact: true }).check();
  await create.getByRole('button', { name: 'Create the API key' }).click();
  const retrieve = page.getByRole('dialog', { name: 'API key for Nightly export' });
  await expect(retrieve.getByLabel('Expires after')).toHaveValue('3');
  await retrieve.getByRole('button', { name: 'Retrieve a new key' }).click();
  await expect(retrieve.getByTestId('retrieved-key')).not.toBeEmpty();
  await expect(retrieve.getByText(/^It expires on /)).toBeVisible();
  await retrieve.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /Nightly export/ })).toContainText('API key');

  // Deleting yourself says so first.
  await own.getByRole('button', { name: /^Delete/ }).click();
  const remove = page.getByRole('dialog', { name: /^Delete / });
  await expect(remove).toContainText('This is you');
  await remove.getByRole('button', { name: 'Cancel' }).click();
  // So does taking superadmin away from yourself.
  await own.getByRole('button', { name: /^Edit/ }).click();
  const edit = page.getByRole('dialog', { name: /^Edit / });
  await edit.getByRole('checkbox', { name: 'superadmin', exact: true }).uncheck();
  await edit.getByRole('button', { name: 'Save the administrator' }).click();
  const demote = page.getByRole('dialog', { name: 'Take superadmin away from yourself?' });
  await expect(demote).toBeVisible();
  await demote.getByRole('button', { name: 'Cancel' }).click();
  await expect(demote).toBeHidden();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(own).toContainText('superadmin');

  // The person signs in with the password given here, and the header names them.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServerPage(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/contacts$/);
  const banner = page.getByRole('banner');
  await expect(banner).toContainText(`Signed in: Pat (${username})`);
  await expect(banner).toContainText(`Account ${account.name}`);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administrators' }),
  ).toHaveCount(0);
});

/**
 * Issue 27 item 4: a person created without a password gets the welcome email (spec §2.6
 * `welcome_email`) with a one-time link; the form says so before and after, and the person chooses
 * a password on the linked page and signs in with it. Without SMTP_URL the server writes what it
 * would send to DATA_DIR/outbox-sink/ (README "Mail").
 */
test('administrators: the welcome email’s link lets a new person choose a password and sign in', async ({
  page,
  server,
}) => {
  test.slow(); // the outbox worker, the server's pages and a sign-in
  const account = await createAccount(server, uniqueName('welcome'));
  const { key } = await createKey(server, { account: account.name });
  const username = `${uniqueName('sam')}@example.com`;

  await signInWithKey(page, key, { path: '/administrators' });
  await page.getByRole('button', { name: 'New administrator' }).click();
  const create = page.getByRole('dialog', { name: 'New administrator' });
  const welcome = create.getByRole('checkbox', {
    name: 'Send a welcome email with a link to choose a password',
  });
  await expect(welcome).toBeChecked();
  await expect(welcome).toHaveAccessibleDescription(
    'They get an email at their username with a link to choose their own password; it works once, for 7 days.',
  );
  // A password given here: no mail, said before it is created.
  await create.getByLabel('Password (to sign in)').fill(PASSWORD);
  await expect(welcome).toHaveAccessibleDescription(
    'No email is sent: you give them a password here.',
  );
  await create.getByLabel('Password (to sign in)').fill('');
  await create.getByLabel('Username (email address)').fill(username);
  await create.getByLabel('First name').fill('Sam');
  await create.getByRole('checkbox', { name: 'contact', exact: true }).check();
  await create.getByRole('button', { name: 'Create the administrator' }).click();
  await expect(create).toBeHidden();
  await expect(
    page.getByText(
      `Created ${username}. A welcome email with a link to choose their password is on its way to ${username}; the link works once, for 7 days.`,
    ),
  ).toBeVisible();

  // The mail, as the outbox worker handed it over, and its link.
  const sink = path.join(server.dataDir, 'outbox-sink');
  let text = '';
  await expect
    .poll(
      async () => {
        const files = await readdir(sink).catch(() => []);
        for (const file of files) {
          const mail = await simpleParser(await readFile(path.join(sink, file)));
          if (mail.to && JSON.stringify(mail.to).includes(username)) text = mail.text ?? '';
        }
        return text;
      },
      { message: 'the welcome email is written to the outbox sink', timeout: 30_000 },
    )
    .toMatch(/\/password\//);
  const link = /https?:\/\/\S+\/password\/\S+/.exec(text)?.[0] ?? '';

  // The linked page: a password of the rule, twice; then the sign-in with it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('The same password again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set my password' }).click();
  await page.getByRole('link', { name: /^Sign in at / }).click();
  await page.getByRole('button', { name: 'Sign in with your Listkeeper account' }).click();
  await signInOnServerPage(page, username, PASSWORD);
  await expect(page.getByRole('banner')).toContainText(`Signed in: Sam (${username})`);
  // The link worked once.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toHaveCount(
    0,
  );
});
