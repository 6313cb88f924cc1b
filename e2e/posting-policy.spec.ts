import type { Page } from '@playwright/test';
import { accountWithContacts, apiAs, expect, signInWithKey, test } from './fixtures/dashboard.ts';
import { expectNoAxeViolations, themes, useTheme } from './fixtures/axe.ts';
import type { RunningServer } from './fixtures/server.ts';

/** An account whose contact Ada is a member of `news`; Grace is a contact on no list. */
async function setup(server: RunningServer) {
  const account = await accountWithContacts(server, 'policy', ['Ada', 'Grace']);
  const api = apiAs(server, account.key);
  await api.lists.create({ name: 'news', taboo_headers: ['^Subject: .*free money'] });
  const ada = (await api.contacts.list({ email: `ada@${account.name}.example` })).data[0];
  expect(ada).toBeDefined();
  await api.membership.create({ list: 'news', contact: ada!.id });
  return {
    account,
    api,
    ada: `ada@${account.name}.example`,
    grace: `grace@${account.name}.example`,
  };
}

const posting = (page: Page) =>
  page.getByRole('region', { name: 'Posting and moderation', exact: true });
const tester = (page: Page) =>
  page.getByRole('region', { name: 'What would happen to a message?' });
const result = (page: Page) => tester(page).getByRole('status', { name: 'What would happen' });

async function openTester(page: Page, key: string) {
  await signInWithKey(page, key, { path: '/lists/news' });
  await expect(page.getByRole('heading', { level: 1, name: 'List news' })).toBeVisible();
  await posting(page)
    .getByRole('button', { name: 'What would happen to a message? Try one' })
    .click();
  await expect(tester(page)).toBeVisible();
}

async function tryMessage(page: Page, sender: string, subject: string) {
  await tester(page).getByLabel('Sender’s address').fill(sender);
  await tester(page).getByLabel('Subject').fill(subject);
  await tester(page).getByRole('button', { name: 'What would happen?' }).click();
}

/** Members of news only, the rest rejected: set on the form and not saved. */
async function membersOnly(page: Page) {
  const form = posting(page);
  await form.getByLabel('Only chosen senders may post').check();
  await form.getByRole('checkbox', { name: 'news', exact: true }).check();
  await form.getByLabel('Messages that are not permitted').selectOption({ label: 'Reject them' });
  await expect(form.getByLabel('The moderate value, for reference')).toHaveValue('6');
}

const rule = (page: Page) => result(page).locator('[data-rule]');

test('moderation set on the form: a non-member is rejected, a taboo subject held, each naming its rule', async ({
  page,
  server,
}) => {
  const { account, ada, grace } = await setup(server);
  await openTester(page, account.key);
  await membersOnly(page);

  // A contact who is not a member: looked up, rejected.
  await tryMessage(page, grace, 'Hello');
  await expect(result(page)).toContainText('Rejected');
  await expect(rule(page)).toHaveText('not-permitted');
  await expect(result(page)).toContainText('moderate 6 lets only members of news');
  await expect(result(page)).toContainText('message_rejections 2 rejects such messages');
  await expect(result(page)).toContainText('The sender gets the rejection message');
  await expect(
    tester(page).getByText('From the address book: a contact of the account.'),
  ).toBeVisible();

  // The member: looked up, permitted.
  await tryMessage(page, ada, 'Meeting on Friday');
  await expect(result(page)).toContainText('Sent to the list');
  await expect(rule(page)).toHaveText('permitted');
  await expect(tester(page).getByLabel('A member of this list (news)')).toBeChecked();

  // A taboo subject from the member: held, naming the rule; Enter tries, it does not save.
  await tester(page).getByLabel('Subject').fill('Get free money now');
  await tester(page).getByLabel('Subject').press('Enter');
  await expect(page.getByRole('dialog', { name: 'Save these changes?' })).toBeHidden();
  await expect(result(page)).toContainText('Held for approval');
  await expect(rule(page)).toHaveText('taboo-header');
  await expect(result(page)).toContainText('taboo_headers[0]');
  await expect(result(page)).toContainText('matches “Subject: Get free money”');
});

test('the answer follows the ticks and the unsaved settings, and saves nothing', async ({
  page,
  server,
}) => {
  const { account, api, ada } = await setup(server);
  await openTester(page, account.key);
  await membersOnly(page);
  const form = posting(page);

  // What if the member were not one: the ticks change the answer at once.
  await tryMessage(page, ada, 'Plans');
  await expect(rule(page)).toHaveText('permitted');
  await tester(page).getByLabel('A member of this list (news)').uncheck();
  await expect(rule(page)).toHaveText('not-permitted');

  // Nobody the account knows: rejected, then held when the form says hold, then everything held.
  await tryMessage(page, 'stranger@elsewhere.example', 'Hi');
  await expect(
    tester(page).getByText('From the address book: nobody with this address.'),
  ).toBeVisible();
  await expect(result(page)).toContainText('Rejected');
  await form
    .getByLabel('Messages that are not permitted')
    .selectOption({ label: 'Hold them for approval' });
  await expect(result(page)).toContainText('Held for approval');
  await expect(rule(page)).toHaveText('not-permitted');
  await form.getByLabel('Every message is held for approval').check();
  await expect(rule(page)).toHaveText('hold-all');

  // A program's message: held by hold_automated (on for a new list), and never answered.
  await form.getByLabel('Anyone: nobody is moderated').check();
  await tester(page).getByLabel('It was sent by a program (an auto-reply)').check();
  await expect(rule(page)).toHaveText('automated');
  await expect(result(page)).toContainText('The sender is not told');

  expect((await api.lists.get('news')).moderate).toBe(0);
  await expectNoAxeViolations(page, 'the posting tester');
});

test('the tester at 390 px, by keyboard', async ({ page, server }) => {
  const { account } = await setup(server);
  await page.setViewportSize({ width: 390, height: 844 });
  await openTester(page, account.key);
  const panel = tester(page);
  const box = await panel.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);

  // Keyboard only: from the address field, type and press Enter.
  await panel.getByLabel('Sender’s address').focus();
  await page.keyboard.type('nobody');
  await page.keyboard.press('Enter');
  await expect(panel.getByText('Enter the sender’s email address.')).toBeVisible();
  await expect(panel.getByLabel('Sender’s address')).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('nobody@elsewhere.example');
  await page.keyboard.press('Enter');
  await expect(result(page)).toContainText('Sent to the list');
  await expect(rule(page)).toHaveText('open');
});

for (const theme of themes) {
  test(`the tester's verdicts in the ${theme} theme`, async ({ page, server }) => {
    const { account } = await setup(server);
    await page.goto('/');
    await useTheme(page, theme);
    await openTester(page, account.key);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await tryMessage(page, 'nobody@elsewhere.example', 'Re: free money');
    await expect(rule(page)).toHaveText('taboo-header');
    await expectNoAxeViolations(page, `the posting tester, held (${theme})`);
    await membersOnly(page);
    await expect(rule(page)).toHaveText('not-permitted');
    await expectNoAxeViolations(page, `the posting tester, rejected (${theme})`);
  });
}
