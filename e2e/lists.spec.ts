import type { Locator, Page } from '@playwright/test';
import type { ApiClient } from '../src/api/client.ts';
import {
  accountWithContacts,
  apiAs,
  createKey,
  expect,
  reloadAndSignIn,
  signInWithKey,
  test,
} from './fixtures/dashboard.ts';
import { expectNoAxeViolations } from './fixtures/axe.ts';
import type { RunningServer } from './fixtures/server.ts';

/** An account with its key, two contacts, and a typed client for arranging and checking. */
async function setup(server: RunningServer) {
  const account = await accountWithContacts(server, 'lists', ['Ada', 'Grace']);
  const api: ApiClient = apiAs(server, account.key);
  return { account, api };
}

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const summary = (page: Page) => page.getByRole('region', { name: 'Moderation summary' });

async function openSettings(page: Page, key: string, name: string) {
  await signInWithKey(page, key, { path: `/lists/${name}` });
  await expect(page.getByRole('heading', { level: 1, name: `List ${name}` })).toBeVisible();
}

async function saveChanges(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Review and save' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save these changes?' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the lists table: create with the name rule, search, open, delete by typing the name', async ({
  page,
  server,
}) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news', description: 'Monthly news' });
  const ada = (await api.contacts.list({})).data[0];
  expect(ada).toBeDefined();
  await api.membership.create({ list: 'news', contact: ada!.id });
  await signInWithKey(page, account.key, { path: '/lists' });

  const name = page.getByLabel('New list name');
  await name.fill('bad name!');
  await expect(
    page.getByText('The name may hold only letters, digits, underscore, period and hyphen.'),
  ).toBeVisible();
  await name.fill('x'.repeat(65));
  await expect(page.getByText('The name has at most 64 characters.')).toBeVisible();
  await name.fill('news');
  await page.getByRole('button', { name: 'Create list' }).click();
  await expect(page.getByText('A list named news already exists in this account.')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await name.fill('team.chat_2');
  await expect(page.locator('.field-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create list' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('link', { name: 'team.chat_2' })).toBeVisible();
  expect((await api.lists.get('team.chat_2')).name).toBe('team.chat_2');

  const newsRow = table.getByRole('row').filter({ hasText: 'Monthly news' });
  expect((await api.lists.get('news')).contacts).toHaveLength(1);
  await expect(newsRow.getByRole('cell').nth(2)).toHaveText('1');
  await expectNoAxeViolations(page, 'the lists table');

  await page.getByLabel('Search lists').fill('monthly');
  await expect(table.getByRole('link')).toHaveText(['news']);
  await expect(page.getByText('1 of 2 lists match')).toBeVisible();
  await page.getByLabel('Search lists').fill('');

  await table.getByRole('button', { name: 'Delete team.chat_2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the list team.chat_2?' });
  const confirm = dialog.getByRole('button', { name: 'Delete the list' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type the list’s name/).fill('team.chat');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type the list’s name/).fill('team.chat_2');
  await confirm.click();
  await expect(table.getByRole('link', { name: 'team.chat_2' })).toHaveCount(0);
  expect((await api.lists.list()).map((list) => list.name)).toEqual(['news']);

  await table.getByRole('link', { name: 'news' }).click();
  await expect(page).toHaveURL(/\/lists\/news$/);
  await expect(page.getByRole('heading', { level: 1, name: 'List news' })).toBeVisible();
  // The members themselves are on their own page (e2e/members.spec.ts): no contact is read here.
  const members = section(page, 'Members').getByRole('link', { name: 'Manage the members' });
  await expect(members).toHaveAttribute('href', '/lists/news/members');
});

test('a global principal reaches a list of any account through /a/:accountId/lists', async ({
  page,
  server,
}) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news' });
  const { key } = await createKey(server, 'global');
  await signInWithKey(page, key, { path: `/a/${account.id}/lists` });
  await page.getByRole('table').getByRole('link', { name: 'news' }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${account.id}/lists/news$`));
  await section(page, 'General').getByLabel('Description').fill('From the group');
  const review = await saveChanges(page);
  await review.getByRole('button', { name: 'Save the changes' }).click();
  await expect(page.getByText('All changes saved.')).toBeVisible();
  expect((await api.lists.get('news')).description).toBe('From the group');
  await page.getByRole('link', { name: 'All lists' }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${account.id}/lists$`));
  await expect(page.getByRole('table').getByText('From the group')).toBeVisible();
});

test('every section is saved and kept, only changed fields are sent', async ({ page, server }) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news' });
  await api.lists.create({ name: 'staff' });
  await openSettings(page, account.key, 'news');

  const puts: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().includes('/lists/news/')) {
      puts.push(request.postData());
    }
  });

  const general = section(page, 'General');
  await general.getByLabel('Description').fill('Monthly news');
  await general.getByLabel('Notes').fill('Run by Ada');
  await general.getByLabel('Subject prefix').fill('[news]');
  await expect(general.getByText('Empty: replies go to the sender.')).toBeVisible();
  await general.getByLabel('Reply-to address').fill('replies@example.com');
  await general.getByLabel('Largest message (KB)').fill('250');
  await general.getByLabel('Truncate messages at (bytes)').fill('4000');

  const posting = section(page, 'Posting and moderation');
  await posting.getByLabel('Only chosen senders may post').check();
  await posting.getByLabel('The allowed addresses below').check();
  await posting
    .getByLabel('Messages that are not permitted')
    .selectOption({ label: 'Reject them' });
  await posting
    .getByLabel('Tell the list manager about held messages')
    .selectOption({ label: 'Notify the list manager of every held message' });
  await posting.getByRole('checkbox', { name: 'staff' }).check();
  await posting
    .getByLabel('Allowed addresses', { exact: true })
    .fill('ada@example.com\nnot-an-address');
  await expect(
    posting.getByText('Line 2 (not-an-address) is not a valid email address.'),
  ).toBeVisible();
  await posting
    .getByLabel('Allowed addresses', { exact: true })
    .fill('ada@example.com\n\ngrace@example.com');
  await posting.getByLabel('Banned addresses').fill('spam@example.com');
  await posting.getByLabel('Alternative moderator').fill('mod@example.com');
  await posting.getByLabel('Hold automated messages').check();
  await posting.getByLabel('Hold replies to the list').check();
  await expect(posting.getByLabel('The moderate value, for reference')).toHaveValue('14');

  const taboo = section(page, 'Taboo rules');
  await taboo.getByLabel('Taboo header rules').fill('^X-Mailer: Bulk');
  await taboo.getByLabel('Taboo body rules').fill('buy now\nunsubscribe here');

  const content = section(page, 'Content');
  await content.getByLabel('Fronter (plain text)').fill('Hello from news');
  await content.getByLabel('Fronter (HTML)').fill('<p>Hello <b>news</b></p>');
  await content.getByLabel('Footer (plain text)').fill('-- \nLeave any time');
  await content
    .getByLabel('Footer (HTML)')
    .fill('<p>Bye<script>window.__pwned = 1</script><img src="https://tracker.example/p.gif"></p>');
  await content.getByLabel('Strip attachments').check();
  await expect(content.locator('pre').filter({ hasText: 'Leave any time' })).toBeVisible();
  const footerFrame = content.locator('iframe[title="Preview of the HTML footer"]');
  // Sandboxed without scripts; same-origin only so the page can apply the kept inline styles.
  await expect(footerFrame).toHaveAttribute('sandbox', 'allow-same-origin');
  const srcdoc = (await footerFrame.getAttribute('srcdoc')) ?? '';
  expect(srcdoc).toContain('Bye');
  expect(srcdoc).not.toMatch(/script|tracker\.example/);
  await expect(
    page.frameLocator('iframe[title="Preview of the HTML fronter"]').locator('b'),
  ).toHaveText('news');

  const held = section(page, 'Held and rejected messages');
  await held.getByLabel('Hold message subject').fill('Held on ');
  await held.getByRole('button', { name: 'Insert $LISTNAME into Hold message subject' }).click();
  await held.getByLabel('Hold message', { exact: true }).fill('Your message  waits.');
  // Put the cursor between the two spaces and insert the subject token there.
  await held
    .getByLabel('Hold message', { exact: true })
    .evaluate((node: HTMLTextAreaElement) => node.setSelectionRange(13, 13));
  await held
    .getByRole('button', { name: 'Insert $SUBJECT into Hold message', exact: true })
    .click();
  await expect(held.getByLabel('Hold message', { exact: true })).toHaveValue(
    'Your message $SUBJECT waits.',
  );
  await expect(held.locator('pre').first()).toContainText(
    'Subject: Held on news@…\n\nYour message Meeting on Friday waits.',
  );
  await held.getByLabel('Send the hold message').check();
  await held.getByLabel('Rejection message subject').fill('Rejected');
  await held.getByLabel('Rejection message', { exact: true }).fill('Sorry, $SUBJECT was refused.');
  await held.getByLabel('Send the rejection message').check();

  const subs = section(page, 'Subscriptions and welcome');
  await subs.getByLabel('Subscriptions', { exact: true }).selectOption({ label: 'Closed' });
  await subs
    .getByLabel('Unsubscriptions')
    .selectOption({ label: 'Open, with approval by a list administrator' });
  await subs.getByLabel('Welcome message subject').fill('Welcome!');
  await subs.getByLabel('Welcome message', { exact: true }).fill('Glad you joined.');
  await subs.getByLabel('Confirmation subject').fill('Please confirm');
  await subs.getByLabel('Confirmation message').fill('Click to confirm.');

  const archives = section(page, 'Archives');
  for (const label of [
    'Archives enabled',
    'Hide addresses in the archives',
    'Protected archives',
    'Members may read protected archives',
    'Hidden from the archives index',
  ]) {
    await archives.getByLabel(label, { exact: true }).check();
  }
  await archives.getByLabel('Set a new password').check();
  await archives.getByLabel('New archive password').fill('archive-secret');

  await section(page, 'Members')
    .getByLabel('Members can see other members')
    .selectOption({ label: 'Members see the other members, with addresses' });

  await expect(summary(page)).toContainText(
    'Only members of the list staff and the 2 allowed addresses may post.',
  );
  const dialog = await saveChanges(page);
  const changes = dialog.getByRole('list', { name: 'Changes' });
  await expect(changes).toContainText('Moderation (moderate): 0 → 14');
  await expect(changes).toContainText('Archive password: unchanged → a new password is set');
  await expect(changes).not.toContainText('archive-secret');
  await dialog.getByRole('button', { name: 'Save the changes' }).click();
  await expect(page.getByText('All changes saved.')).toBeVisible();

  const expected = {
    description: 'Monthly news',
    notes: 'Run by Ada',
    subject_prefix: '[news]',
    reply_to: 'replies@example.com',
    maxlength: 250,
    truncate: 4000,
    moderate: 14,
    message_rejections: 2,
    notify_approval: 1,
    restrict_post_lists: ['staff'],
    restrict_post_allowed_emails: ['ada@example.com', 'grace@example.com'],
    restrict_post_banned_emails: ['spam@example.com'],
    moderator: 'mod@example.com',
    hold_automated: true,
    hold_replies: true,
    taboo_headers: ['^X-Mailer: Bulk'],
    taboo_body: ['buy now', 'unsubscribe here'],
    message_fronter: 'Hello from news',
    message_fronter_html: '<p>Hello <b>news</b></p>',
    message_footer: '-- \nLeave any time',
    message_footer_html:
      '<p>Bye<script>window.__pwned = 1</script><img src="https://tracker.example/p.gif"></p>',
    strip_attachments: true,
    hold_subject: 'Held on $LISTNAME',
    hold_message: 'Your message $SUBJECT waits.',
    send_hold_message: true,
    reject_subject: 'Rejected',
    reject_message: 'Sorry, $SUBJECT was refused.',
    send_reject_message: true,
    subscriptions: 'closed',
    unsubscriptions: 'open+confirm',
    welcome_message_subject: 'Welcome!',
    welcome_message: 'Glad you joined.',
    confirmation_subject: 'Please confirm',
    confirmation_message: 'Click to confirm.',
    archive_enabled: true,
    archive_spammode: true,
    archive_protected: true,
    archive_memberview: true,
    archive_index_noshow: true,
    memberview: 'withemail',
  };
  const stored = await api.lists.get('news');
  expect(stored).toMatchObject(expected);
  expect(stored).not.toHaveProperty('archive_password');
  // Spec §1 rule 6: the PUT named only the changed fields (the name was not among them).
  expect(puts).toHaveLength(1);
  const sent = new URLSearchParams(String(puts[0]));
  expect(sent.has('name')).toBe(false);
  expect(sent.get('archive_password')).toBe('archive-secret');
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();

  await reloadAndSignIn(page, account.key);
  await expect(page.getByRole('heading', { level: 1, name: 'List news' })).toBeVisible();
  await expect(section(page, 'General').getByLabel('Reply-to address')).toHaveValue(
    'replies@example.com',
  );
  await expect(section(page, 'General').getByLabel('Truncate messages at (bytes)')).toHaveValue(
    '4000',
  );
  await expect(posting.getByLabel('The moderate value, for reference')).toHaveValue('14');
  await expect(posting.getByLabel('Allowed addresses', { exact: true })).toHaveValue(
    'ada@example.com\ngrace@example.com',
  );
  await expect(posting.getByRole('checkbox', { name: 'staff' })).toBeChecked();
  await expect(taboo.getByLabel('Taboo body rules')).toHaveValue('buy now\nunsubscribe here');
  await expect(held.getByLabel('Hold message', { exact: true })).toHaveValue(
    'Your message $SUBJECT waits.',
  );
  await expect(subs.getByLabel('Unsubscriptions')).toHaveValue('2');
  await expect(archives.getByLabel('Leave the password as it is')).toBeChecked();
  await expect(page.getByText('archive-secret')).toHaveCount(0);
  await expect(archives.getByLabel('Hidden from the archives index')).toBeChecked();
  await expect(page.getByText('No unsaved changes.')).toBeVisible();

  // Clearing the reply-to sends null: replies go to the sender again; the password is removed.
  await section(page, 'General').getByLabel('Reply-to address').fill('');
  await archives.getByLabel('Remove the password').check();
  const second = await saveChanges(page);
  await expect(second.getByRole('list', { name: 'Changes' }).getByRole('listitem')).toHaveText([
    'Reply-to address: replies@example.com → not set',
    'Archive password: unchanged → removed',
  ]);
  await second.getByRole('button', { name: 'Save the changes' }).click();
  await expect(page.getByText('All changes saved.')).toBeVisible();
  expect((await api.lists.get('news')).reply_to).toBeNull();
});

test('the moderation summary matches each moderate value and rejection setting', async ({
  page,
  server,
}) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'staff' });
  await api.lists.create({
    name: 'news',
    restrict_post_lists: ['staff'],
    restrict_post_allowed_emails: ['ada@example.com', 'grace@example.com'],
  });
  await openSettings(page, account.key, 'news');
  const posting = section(page, 'Posting and moderation');
  const value = posting.getByLabel('The moderate value, for reference');
  const who = summary(page).locator('[data-summary="who"]');
  const others = summary(page).locator('[data-summary="else"]');
  const told = summary(page).locator('[data-summary="told"]');

  const cases: [number, string, string | null][] = [
    [0, 'Anyone may post; messages go out without approval.', null],
    [1, 'Anyone may send, but every message is held for approval before it goes out.', null],
    [
      2,
      'Nobody is permitted: only chosen senders may post, but none are chosen.',
      'no kind of sender is chosen',
    ],
    [6, 'Only members of the list staff may post.', null],
    [10, 'Only the 2 allowed addresses may post.', null],
    [14, 'Only members of the list staff and the 2 allowed addresses may post.', null],
    [4, 'Anyone may post; messages go out without approval.', 'count only when'],
    [3, 'Anyone may send, but every message is held', 'the other flags change nothing'],
  ];
  for (const [moderate, text, problem] of cases) {
    await value.fill(String(moderate));
    await expect(who, `moderate = ${moderate}`).toHaveText(
      new RegExp(`^${text.replace(/[.()]/g, '\\$&')}`),
    );
    const problems = posting.getByRole('note', { name: 'Problems with this choice' });
    if (problem) await expect(problems).toContainText(problem);
    else await expect(problems).toHaveCount(0);
  }
  await expect(posting.getByLabel('Only chosen senders may post')).not.toBeChecked();
  await posting.getByRole('button', { name: 'Keep only “every message held” (1)' }).click();
  await expect(value).toHaveValue('1');
  await value.fill('8');
  await posting
    .getByRole('button', { name: 'Turn on “only chosen senders may post” (10)' })
    .click();
  await expect(posting.getByRole('note', { name: 'Problems with this choice' })).toHaveCount(0);
  await value.fill('10');
  await expect(posting.getByLabel('Only chosen senders may post')).toBeChecked();
  await expect(posting.getByLabel('The allowed addresses below')).toBeChecked();
  await expect(posting.getByLabel('Members of the lists chosen below')).not.toBeChecked();

  const rejections = posting.getByLabel('Messages that are not permitted');
  await expect(others).toHaveText(/follows the account’s default setting/);
  await rejections.selectOption({ label: 'Hold them for approval' });
  await expect(others).toHaveText(
    'Everyone else is not permitted. Their messages are held for approval.',
  );
  await rejections.selectOption({
    label: 'Hold them if the sender is a contact of the account, otherwise reject',
  });
  await expect(others).toContainText(
    'held for approval if they are a contact in the account; otherwise they are rejected',
  );
  await rejections.selectOption({
    label: 'Hold every message for approval; reject those not permitted',
  });
  await expect(who).toHaveText(
    'Only the 2 allowed addresses may post, and their messages are held for approval too.',
  );
  await expect(told).toContainText('follows the account’s default');
  await posting
    .getByLabel('Tell the list manager about held messages')
    .selectOption({ label: 'Do not notify' });
  await expect(told).toContainText('Nobody is notified when a message is held.');

  await value.fill('16');
  await expect(
    posting.getByText('The value is a sum of the bits 1, 2, 4 and 8 (at most 15).'),
  ).toBeVisible();
});

test('an invalid regular expression is refused on its field; the tester names the rule', async ({
  page,
  server,
}) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news' });
  await openSettings(page, account.key, 'news');
  const taboo = section(page, 'Taboo rules');
  const rules = taboo.getByLabel('Taboo body rules');
  await rules.fill('buy now\n(unclosed');
  await expect(
    taboo.getByText('Line 2 ((unclosed) is not a valid regular expression.'),
  ).toBeVisible();
  await expect(rules).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Review and save' }).click();
  await expect(page.getByRole('dialog', { name: 'Save these changes?' })).toHaveCount(0);
  await expect(rules).toBeFocused();
  expect((await api.lists.get('news')).taboo_body).toEqual([]);

  await rules.fill('buy now\nfree (money|cash)');
  await expect(taboo.locator('.field-error')).toHaveCount(0);
  await taboo.getByLabel('Test a message body').fill('Hello\nGet free cash today');
  await expect(taboo.getByRole('list', { name: 'Matching body rules' })).toHaveText(
    'Rule 2 free (money|cash) matches Get free cash today',
  );
  await taboo.getByLabel('Taboo header rules').fill('^X-Spam: yes');
  await taboo.getByLabel('Test a header block').fill('From: a@example.com\nX-Spam: yes');
  await expect(taboo.getByRole('list', { name: 'Matching headers rules' })).toContainText(
    '^X-Spam: yes',
  );
  await taboo.getByLabel('Test a header block').fill('From: a@example.com');
  await expect(taboo.getByText('No rule matches')).toBeVisible();
});

test('leaving with unsaved changes asks first', async ({ page, server }) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news' });
  await openSettings(page, account.key, 'news');
  await section(page, 'General').getByLabel('Description').fill('Changed');
  await expect(page.getByText('1 unsaved change')).toBeVisible();

  await page.getByRole('link', { name: 'All lists' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(/\/lists\/news$/);
  await expect(section(page, 'General').getByLabel('Description')).toHaveValue('Changed');

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contacts' })
    .click();
  await dialog.getByRole('button', { name: 'Leave and lose the changes' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
  expect((await api.lists.get('news')).description).toBe('');

  // Closing or reloading the tab with unsaved changes: the browser's own question.
  await signInWithKey(page, account.key, { path: '/lists/news' });
  await expect(page.getByRole('heading', { level: 1, name: 'List news' })).toBeVisible();
  await section(page, 'General').getByLabel('Notes').fill('Unsaved');
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const question = await asked;
  expect(question.type()).toBe('beforeunload');
  await question.accept();
});

test('a list without changes is left without a question', async ({ page, server }) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news' });
  await openSettings(page, account.key, 'news');
  // No changes: no question.
  await page.getByRole('link', { name: 'All lists' }).click();
  await expect(page).toHaveURL(/\/lists$/);
});

test('settings are copied from another list, section by section, as unsaved changes', async ({
  page,
  server,
}) => {
  const { account, api } = await setup(server);
  await api.lists.create({
    name: 'template',
    description: 'The template',
    moderate: 10,
    message_rejections: 2,
    restrict_post_allowed_emails: ['ada@example.com'],
    archive_protected: true,
    taboo_body: ['casino'],
  });
  await api.lists.create({ name: 'news', description: 'Own description' });
  await openSettings(page, account.key, 'news');

  await page.getByRole('button', { name: 'Copy settings from another list…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy settings from another list' });
  await dialog.getByLabel('Copy from').selectOption('template');
  await dialog.getByLabel('Posting and moderation').check();
  await dialog.getByLabel('Archives').check();
  await dialog.getByRole('button', { name: 'Copy into the form' }).click();

  const posting = section(page, 'Posting and moderation');
  await expect(posting.getByLabel('The moderate value, for reference')).toHaveValue('10');
  await expect(posting.getByLabel('Allowed addresses', { exact: true })).toHaveValue(
    'ada@example.com',
  );
  await expect(
    section(page, 'Archives').getByLabel('Protected archives', { exact: true }),
  ).toBeChecked();
  // Sections not ticked are left alone.
  await expect(section(page, 'General').getByLabel('Description')).toHaveValue('Own description');
  await expect(section(page, 'Taboo rules').getByLabel('Taboo body rules')).toHaveValue('');
  await expect(page.getByText('4 unsaved changes')).toBeVisible();
  expect((await api.lists.get('news')).moderate).toBe(0);

  const review = await saveChanges(page);
  await expect(review.getByRole('listitem')).toHaveText([
    'Allowed addresses: (none) → ada@example.com',
    'Moderation (moderate): 0 → 10',
    'Messages that are not permitted: Use the account default → Reject them',
    'Protected archives: no → yes',
  ]);
  await review.getByRole('button', { name: 'Save the changes' }).click();
  await expect(page.getByText('All changes saved.')).toBeVisible();
  expect(await api.lists.get('news')).toMatchObject({
    description: 'Own description',
    moderate: 10,
    message_rejections: 2,
    restrict_post_allowed_emails: ['ada@example.com'],
    archive_protected: true,
    taboo_body: [],
  });
});

test('renaming moves the page to the new name; empty numbers and addresses are checked', async ({
  page,
  server,
}) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news', truncate: 2000, maxlength: 100 });
  await openSettings(page, account.key, 'news');
  const general = section(page, 'General');
  await general.getByLabel('Reply-to address').fill('not an address');
  await expect(general.getByText('Reply-to address is not a valid email address.')).toBeVisible();
  await general.getByLabel('Reply-to address').fill('');
  await general.getByLabel('Largest message (KB)').fill('');
  await expect(
    general.getByText('Largest message (KB) must be a whole number of KB.'),
  ).toBeVisible();
  await general.getByLabel('Largest message (KB)').fill('120');
  await general.getByLabel('Truncate messages at (bytes)').fill('');
  await general.getByLabel('Name').fill('news two');
  await expect(
    general.getByText('Name may hold only letters, digits, underscore, period and hyphen.'),
  ).toBeVisible();
  await general.getByLabel('Name').fill('news-2');
  const review = await saveChanges(page);
  await expect(review.getByRole('listitem')).toHaveText([
    'Name: news → news-2',
    'Largest message (KB): 100 → 120',
    'Truncate messages at (bytes): 2000 → not set',
  ]);
  await review.getByRole('button', { name: 'Save the changes' }).click();
  await expect(page).toHaveURL(/\/lists\/news-2$/);
  await expect(page.getByRole('heading', { level: 1, name: 'List news-2' })).toBeVisible();
  await expect(page.getByText('No unsaved changes.')).toBeVisible();
  expect(await api.lists.get('news-2')).toMatchObject({
    maxlength: 120,
    truncate: null,
    reply_to: null,
  });
  expect((await api.lists.list()).map((list) => list.name)).toEqual(['news-2']);
});

test('a server error lands on its field', async ({ page, server }) => {
  const { account, api } = await setup(server);
  await api.lists.create({ name: 'news' });
  await api.lists.create({ name: 'taken' });
  await openSettings(page, account.key, 'news');
  await section(page, 'General').getByLabel('Name').fill('taken');
  const review = await saveChanges(page);
  await expect(review.getByRole('listitem')).toHaveText(['Name: news → taken']);
  await review.getByRole('button', { name: 'Save the changes' }).click();
  const name = section(page, 'General').getByLabel('Name');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  await expect(
    section(page, 'General').getByText('a list named taken already exists in this account'),
  ).toBeVisible();
  expect((await api.lists.list()).map((list) => list.name).sort()).toEqual(['news', 'taken']);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the settings page has zero axe violations in the ${theme} theme`, async ({
    page,
    server,
  }) => {
    const { account, api } = await setup(server);
    await api.lists.create({ name: 'staff' });
    await api.lists.create({ name: 'news', moderate: 5, message_footer_html: '<p>Bye</p>' });
    await page.goto('/sign-in');
    await page.evaluate((choice) => localStorage.setItem('listkeeper.theme', choice), theme);
    await openSettings(page, account.key, 'news');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectNoAxeViolations(page, 'the list settings page');
    await section(page, 'General').getByLabel('Description').fill('x');
    await saveChanges(page);
    await expectNoAxeViolations(page, 'the summary of changes');
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await page.getByRole('link', { name: 'All lists' }).click();
    await page
      .getByRole('dialog', { name: 'Leave without saving?' })
      .getByRole('button', { name: 'Leave and lose the changes' })
      .click();
    await expect(page.getByRole('table')).toBeVisible();
    await expectNoAxeViolations(page, 'the lists table');
  });
}
