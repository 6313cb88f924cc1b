import Papa from 'papaparse';
import {
  accountWithContacts,
  apiAs,
  expect,
  signInWithKey,
  test,
  watchContactReads,
} from './fixtures/dashboard.ts';
import { expectNoAxeViolations } from './fixtures/axe.ts';

test.use({ viewport: { width: 1440, height: 900 } });
// One rate-limit window for the whole run (ending in 2033), so a cost read from X-RateLimit-Remaining
// never straddles the turn of an hour.
test.use({ serverEnv: { RATE_LIMIT_WINDOW_SECONDS: '1000000000' } });

test('a list’s members: pages, search, add, digest, remove, bulk remove, export', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'members', ['Ada']);
  const api = apiAs(server, account.key);
  await api.lists.create({ name: 'club' });
  const domain = `${account.name}.example`;
  for (let i = 1; i <= 30; i++) {
    await api.contacts.create({
      firstname:
        i === 1 ? '=HYPERLINK("http://evil.example")' : `Member${String(i).padStart(2, '0')}`,
      surname: 'Club',
      emails: [`m${i}@${domain}`],
      lists: ['club'],
    });
  }
  const memberCount = async () => (await api.lists.get('club')).contacts.length;
  // The account's allowance left (spec §8, the X-RateLimit-* extension), read with one object.
  const allowanceLeft = async () => {
    const answer = await page.request.get(`${server.url}/api/2/caller/`, {
      headers: { authorization: `Bearer ${account.key}` },
    });
    return Number(answer.headers()['x-ratelimit-remaining']);
  };

  const reads = watchContactReads(page);
  const before = await allowanceLeft();
  await signInWithKey(page, account.key, { path: '/lists/club/members' });
  await expect(page.getByRole('heading', { level: 1, name: 'Members of club' })).toBeVisible();
  const summary = page.locator('p.members-summary');
  await expect(summary).toHaveText('30 members; page 1 of 2.');
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(26);
  // One request for the page of 25 (the list filter), none per contact (spec §8: frugal).
  expect(reads).toEqual(['/api/2/contacts/?list=club&page=1&limit=25']);
  // …and the page costs what it shows (issue 17 item 1): the 25 members, the list read with its
  // member count instead of its 30 ids (contacts=count, 1), who is signed in (1), and this read (1).
  // The navigation's Held count reads one held message at most (issue 27 item 3): 0 or 1 more;
  // the account's custom fields (issue 27 item 1) and the members' bounce states (issue 26 item 1,
  // none here: a read that finds nothing counts 1) one each.
  const spent = before - (await allowanceLeft());
  expect(spent).toBeGreaterThanOrEqual(25 + 1 + 1 + 1);
  expect(spent).toBeLessThanOrEqual(25 + 1 + 1 + 1 + 1 + 1 + 1);
  await expectNoAxeViolations(page, 'the members page');

  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(summary).toHaveText('30 members; page 2 of 2.');
  await expect(table.getByRole('row')).toHaveCount(6);
  await expect(page).toHaveURL(/\/lists\/club\/members\?page=2$/);

  await page.getByLabel('Search the members').fill('member07');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(summary).toHaveText('1 member matches.');
  await expect(table.getByRole('link')).toHaveText(['Member07 Club']);
  await page.getByLabel('Search the members').fill('');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(summary).toHaveText('30 members; page 1 of 2.');

  // Add an existing contact, found by search.
  await page.getByLabel('Name or address').fill('Ada');
  await page.getByRole('button', { name: 'Find' }).click();
  await page.getByRole('button', { name: `Add Ada ${account.name} to club` }).click();
  await expect(page.getByText(`Ada ${account.name} is now a member of club.`)).toBeVisible();
  await expect(summary).toHaveText('31 members; page 1 of 2.');
  expect(await memberCount()).toBe(31);

  // Add a new address: a contact is created with the membership.
  const fresh = `newcomer@${domain}`;
  await page.getByLabel('Name or address').fill(fresh);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByText(`No contact matches “${fresh}”.`)).toBeVisible();
  await page.getByRole('button', { name: `Create a contact for ${fresh} and add it` }).click();
  await expect(page.getByText(`${fresh} is now a member of club.`)).toBeVisible();
  const created = (await api.contacts.list({ email: fresh })).data[0];
  expect(created?.lists.map((membership) => membership.list)).toEqual(['club']);
  await expect(summary).toHaveText('32 members; page 1 of 2.');

  // The digest override, saved at once.
  const digest = page.getByLabel('Digest for Member02 Club (saved at once)');
  await digest.selectOption({ label: 'Daily digest' });
  await expect(digest).toBeEnabled();
  const member2 = (await api.contacts.list({ email: `m2@${domain}` })).data[0];
  await expect.poll(async () => (await api.contacts.get(member2!.id)).lists[0]?.digest).toBe(true);

  // Remove one, after confirming.
  await page.getByRole('button', { name: 'Remove Member03 Club from club' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove from club?' });
  await expect(dialog).toContainText('Member03 Club will no longer receive the messages of club.');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden();
  await expect(summary).toHaveText('31 members; page 1 of 2.');
  await expect(table.getByRole('link', { name: 'Member03 Club' })).toHaveCount(0);
  expect(await memberCount()).toBe(31);
  // The focus, back on the removed row's button, went with the row: it is on the next one's.
  await expect(page.getByRole('button', { name: 'Remove Member04 Club from club' })).toBeFocused();

  // Bulk remove the selected members, through the job panel.
  await page.getByLabel('Select Member04 Club').check();
  await page.getByLabel('Select Member05 Club').check();
  await page.getByRole('button', { name: 'Remove the 2 selected members' }).click();
  await page
    .getByRole('dialog', { name: 'Remove 2 members from club?' })
    .getByRole('button', { name: 'Remove them' })
    .click();
  const job = page.getByRole('region', { name: 'Removing members from club' });
  await expect(job.getByRole('status')).toHaveText('Finished. 2 of 2 done: 2 succeeded, 0 failed.');
  expect(await memberCount()).toBe(29);
  await job.getByRole('button', { name: 'Close' }).click();
  await expect(summary).toHaveText('29 members; page 1 of 2.');

  // Export: every member, the formula-like name escaped.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as CSV' }).click();
  const file = await download;
  const rows = Papa.parse<string[]>(
    Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8'),
    { skipEmptyLines: true },
  ).data;
  await expect(page.getByText('Exported 29 members.')).toBeVisible();
  expect(rows[0]).toEqual(['id', 'firstname', 'surname', 'emails', 'digest']);
  expect(rows).toHaveLength(30);
  expect(rows.find((row) => row[3] === `m1@${domain}`)?.[1]).toBe(
    '\'=HYPERLINK("http://evil.example")',
  );
  expect(rows.find((row) => row[3] === `m2@${domain}`)?.[4]).toBe('digest');
  expect(new Set(rows.slice(1).map((row) => row[0]))).toEqual(
    new Set((await api.lists.get('club')).contacts.map(String)),
  );
});

test('the list settings link to the members page, also under /a/:accountId for a global key', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'members-link', ['Ada']);
  const api = apiAs(server, account.key);
  await api.lists.create({ name: 'club' });
  await signInWithKey(page, account.key, { path: '/lists/club' });
  await page.getByRole('link', { name: 'Add members' }).click();
  await expect(page).toHaveURL(/\/lists\/club\/members$/);
  await expect(page.getByText('No members yet.')).toBeVisible();
  await page.getByRole('link', { name: 'Settings of club' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'List club' })).toBeVisible();
});
