import { ApiError } from '../src/api/errors.ts';
import {
  accountWithContacts,
  apiAs,
  createAccount,
  createKey,
  expect,
  reloadAndSignIn,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import { expectNoAxeViolations } from './fixtures/axe.ts';

/** RFC 4180, independently of the dashboard's own parser: quoted fields, doubled quotes, CRLF. */
function parseCsv(text: string): string[][] {
  const fields = /("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n|\n|$)/gy;
  const rows: string[][] = [];
  let row: string[] = [];
  let match: RegExpExecArray | null;
  while (fields.lastIndex < text.length && (match = fields.exec(text))) {
    const [, raw = '', end] = match;
    row.push(raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw);
    if (end !== ',') {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/** Creates `count` contacts through the API, a few requests at a time. */
async function seedContacts(
  api: ReturnType<typeof apiAs>,
  domain: string,
  count: number,
  lists: string[] = [],
) {
  const queue = Array.from({ length: count }, (_, i) => i + 1);
  const worker = async () => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      const pad = String(n).padStart(4, '0');
      await api.contacts.create({
        firstname: `Person${pad}`,
        surname: 'Seeded',
        emails: [`p${pad}@${domain}`],
        lists,
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

test('create, find, edit, add an address, change a digest, delete; no axe violations', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'crud', ['Ann', 'Bob']);
  const api = apiAs(server, account.key);
  await api.lists.create({ name: 'news' });
  await api.lists.create({ name: 'events' });
  await signInWithKey(page, account.key, { path: '/contacts' });

  await expect(page.getByRole('cell', { name: `Ann ${account.name}` })).toBeVisible();
  await expectNoAxeViolations(page, 'the contacts table');

  // Create, with two addresses and a list.
  await page.getByRole('link', { name: 'New contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New contact' })).toBeVisible();
  await page.getByLabel('First name').fill('Carla');
  await page.getByLabel('Surname').fill('Diaz');
  await page.getByLabel('Address', { exact: true }).fill('not-an-address');
  await page.getByRole('button', { name: 'Create the contact' }).click();
  await expect(page.getByText('The address is not a valid email address.')).toBeVisible();
  await page.getByLabel('Address', { exact: true }).fill('carla@crud.example');
  await page.getByRole('button', { name: 'Add another address' }).click();
  await page.getByRole('textbox', { name: 'Address 2' }).fill('ann@' + account.name + '.example');
  await page.getByLabel('news').check();
  await expectNoAxeViolations(page, 'the new-contact form');
  await page.getByRole('button', { name: 'Create the contact' }).click();
  // The server's refusal lands on the field it concerns.
  await expect(page.getByText(/The address already belongs to another contact/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Address 2' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await page.getByRole('textbox', { name: 'Address 2' }).fill('carla.work@crud.example');
  await page.getByRole('button', { name: 'Create the contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Carla Diaz' })).toBeVisible();

  // Find it by searching as you type; the search is kept in the URL.
  await page.getByRole('link', { name: 'All contacts' }).click();
  await page.getByLabel('Search contacts').fill('carla');
  await expect(page).toHaveURL(/[?&]q=carla/);
  await expect(page.getByRole('status').filter({ hasText: '1 contact' })).toBeVisible();
  await reloadAndSignIn(page, account.key);
  await expect(page.getByLabel('Search contacts')).toHaveValue('carla');
  await page.getByRole('link', { name: 'Carla Diaz' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Carla Diaz' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'carla.work@crud.example' })).toBeVisible();
  await expectNoAxeViolations(page, 'the contact page');

  // Edit: only the changed field is sent (spec §1 rule 6).
  const puts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(request.postData() ?? '');
  });
  await page.getByLabel('Notes').fill('Prefers email');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect(puts).toEqual(['notes=Prefers+email']);
  const [saved] = (await api.contacts.list({ search: 'carla' })).data;
  expect(saved?.notes).toBe('Prefers email');
  expect(saved?.firstname).toBe('Carla');

  // Add an address.
  await page.getByLabel('New address').fill('carla.home@crud.example');
  await page.getByRole('button', { name: 'Add the address' }).click();
  await expect(page.getByRole('rowheader', { name: 'carla.home@crud.example' })).toBeVisible();
  await page.getByLabel('Paused for carla.home@crud.example').check();
  await expect(page.getByLabel('Paused for carla.home@crud.example')).toBeChecked();
  await expect
    .poll(async () => (await api.emails.get('carla.home@crud.example')).paused)
    .toBe(true);

  // Change the digest of a membership: three states.
  const digest = page.getByLabel('Digest for news');
  await expect(digest).toHaveValue('default');
  await digest.selectOption({ label: 'Daily digest' });
  await expect
    .poll(async () => (await api.contacts.get(saved?.id ?? 0)).lists[0]?.digest)
    .toBe(true);
  await page.getByLabel('Digest for news').selectOption({ label: 'No digest' });
  await expect
    .poll(async () => (await api.contacts.get(saved?.id ?? 0)).lists[0]?.digest)
    .toBe(false);
  await page.getByLabel('Digest for news').selectOption({ label: 'The address’s setting' });
  await expect
    .poll(async () => (await api.contacts.get(saved?.id ?? 0)).lists[0]?.digest)
    .toBe(null);

  // Add to another list chosen from the account's lists, then remove it.
  await page.getByLabel('Add to the list').selectOption('events');
  await page.getByRole('button', { name: 'Add to the list' }).click();
  await expect(page.getByRole('rowheader', { name: 'events' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove from events' }).click();
  await expect(page.getByRole('rowheader', { name: 'events' })).toBeHidden();

  // Deleting one of several addresses keeps the contact.
  await page.getByRole('button', { name: 'Delete carla.home@crud.example' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).not.toContainText('only address');
  await dialog.getByRole('button', { name: 'Delete the address' }).click();
  await expect(page.getByRole('rowheader', { name: 'carla.home@crud.example' })).toBeHidden();

  // Delete the contact.
  await page.getByRole('button', { name: 'Delete the contact' }).click();
  await expectNoAxeViolations(page, 'the delete dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete the contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
  await expect(page.getByRole('link', { name: `Ann ${account.name}` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Carla Diaz' })).toBeHidden();
  await page.getByLabel('Search contacts').fill('carla');
  await expect(page.getByText('No contact matches this search.')).toBeVisible();
  await expect(api.contacts.get(saved?.id ?? 0)).rejects.toThrow(ApiError);
});

test('deleting the last address warns that the contact goes too', async ({ page, server }) => {
  const account = await accountWithContacts(server, 'last', ['Lone']);
  await signInWithKey(page, account.key, { path: '/contacts' });
  await page.getByRole('link', { name: `Lone ${account.name}` }).click();
  await page.getByRole('button', { name: /^Delete lone@/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('This is the contact’s only address.');
  await dialog.getByRole('button', { name: 'Delete the address and the contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
  await expect(page.getByText('No contacts yet.')).toBeVisible();
});

test('a ccid already in use is explained on the field (409)', async ({ page, server }) => {
  const ccidAccount = (await server.cli(['account', 'create', uniqueName('ccid'), '--ccid'])) as {
    name: string;
  };
  const { key } = await createKey(server, { account: ccidAccount.name });
  const api = apiAs(server, key);
  await api.contacts.create({ ccid: 'C-1', firstname: 'Old', emails: ['old@ccid.example'] });
  await signInWithKey(page, key, { path: '/contacts/new' });
  await page.getByLabel('First name').fill('New');
  await page.getByLabel('Address', { exact: true }).fill('new@ccid.example');
  await page.getByLabel(/Custom ID/).fill('C-1');
  await page.getByRole('button', { name: 'Create the contact' }).click();
  await expect(
    page.getByText('Custom ID (ccid) is already the custom ID of another contact'),
  ).toBeVisible();
  await page.getByLabel(/Custom ID/).fill('C-2');
  await page.getByRole('button', { name: 'Create the contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New' })).toBeVisible();
  // On a ccid account the ccid is the contact's identifier in the URL (spec §2.1).
  await expect(page).toHaveURL(/\/contacts\/C-2$/);
  await expect(page.getByLabel('Custom ID (ccid)')).toHaveValue('C-2');
});

test('pages of 25, 100 and 1000; 1000 rows are virtualized; filters; export matches the server', async ({
  page,
  server,
}) => {
  const account = await createAccount(server, uniqueName('many'));
  const { key } = await createKey(server, { account: account.name });
  const api = apiAs(server, key);
  await api.lists.create({ name: 'members' });
  const domain = `${account.name}.example`;
  await seedContacts(api, domain, 1030);
  await api.contacts.create({
    firstname: 'Listed',
    surname: 'Person, "quoted"',
    notes: 'line one\nline two',
    emails: ['listed@' + domain],
    lists: ['members'],
  });
  await signInWithKey(page, key, { path: '/contacts' });

  const summary = page.getByRole('status').filter({ hasText: /^\d+ contacts?\b/ });
  await expect(summary).toHaveText('1031 contacts; page 1 of 42');
  const table = page.getByRole('table');
  await expect(table).toHaveAttribute('aria-rowcount', '1032');
  await expect(table.locator('tbody tr[aria-rowindex]')).toHaveCount(25);

  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(table.locator('tbody tr').first()).toHaveAttribute('aria-rowindex', '27');

  await page.getByLabel('Per page').selectOption('1000');
  await expect(summary).toHaveText('1031 contacts; page 1 of 2');
  await expect(page).toHaveURL(/limit=1000/);
  // Only the rows near the viewport are in the DOM.
  const rendered = await table.locator('tbody tr[aria-rowindex]').count();
  expect(rendered).toBeGreaterThan(10);
  expect(rendered).toBeLessThan(150);
  await page.getByRole('region', { name: 'Contacts' }).evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(table.locator('tbody tr[aria-rowindex="1001"]')).toBeVisible();
  await expectNoAxeViolations(page, 'a 1000-row page');

  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(table.locator('tbody tr[aria-rowindex]')).toHaveCount(31);

  // Filters: orphans, one address.
  await page.getByLabel('Only contacts on no list').check();
  await expect(summary).toHaveText('1030 contacts; page 1 of 2');
  await page.getByLabel('Only contacts on no list').uncheck();
  await page.getByLabel('With the address').fill('listed@' + domain);
  await expect(summary).toHaveText('1 contact');
  await expect(page.getByRole('link', { name: 'Listed Person, "quoted"' })).toBeVisible();
  await page.getByLabel('With the address').fill('');

  // Export every contact of a search across pages, compared with the server's own data.
  await page.getByLabel('Search contacts').fill('Person');
  await expect(summary).toHaveText('1031 contacts; page 1 of 2');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as CSV' }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray();
  const rows = parseCsv(Buffer.concat(text).toString('utf8'));
  await expect(page.getByText('Exported 1031 contacts.')).toBeVisible();
  const [header, ...records] = rows;
  expect(header?.slice(0, 7)).toEqual([
    'id',
    'ccid',
    'firstname',
    'surname',
    'created',
    'notes',
    'emails',
  ]);
  const server1 = await api.contacts.list({ search: 'Person', limit: 1000, page: 1 });
  const server2 = await api.contacts.list({ search: 'Person', limit: 1000, page: 2 });
  const all = [...server1.data, ...server2.data];
  expect(records).toHaveLength(all.length);
  const byId = new Map(records.map((r) => [r[0], r]));
  for (const contact of all) {
    const record = byId.get(String(contact.id));
    expect(record?.slice(2, 7)).toEqual([
      contact.firstname,
      contact.surname,
      contact.created,
      contact.notes,
      contact.emails.map((e) => e.email).join(';'),
    ]);
    expect(record?.[10]).toBe(contact.lists.map((m) => m.list).join(';'));
  }
});

test('bulk: add all 300 contacts of a search to a list, then act on a selection', async ({
  page,
  server,
}) => {
  const account = await createAccount(server, uniqueName('bulk'));
  const { key } = await createKey(server, { account: account.name });
  const api = apiAs(server, key);
  await api.lists.create({ name: 'big' });
  await seedContacts(api, `${account.name}.example`, 300);
  await api.contacts.create({ firstname: 'Outsider', emails: ['out@elsewhere.example'] });
  await signInWithKey(page, key, { path: '/contacts?q=Seeded' });

  await expect(page.getByRole('status').filter({ hasText: /^300 contacts/ })).toBeVisible();
  await page.getByText('Bulk actions').click();
  await expectNoAxeViolations(page, 'the bulk form');
  await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Add to a list' });
  await page.getByLabel('List', { exact: true }).selectOption('big');
  await expect(page.getByLabel('All 300 matching the search')).toBeChecked();
  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(page.getByText('300 contacts will be added to big.')).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  const job = page.getByRole('region', { name: 'Add to a list: big' });
  await expect(job.getByRole('progressbar')).toBeVisible();
  await expect(job.getByText('Finished. 300 of 300 done: 300 succeeded, 0 failed.')).toBeVisible({
    timeout: 30_000,
  });
  await expectNoAxeViolations(page, 'a finished job');
  const big = await api.lists.get('big');
  expect(big.contacts).toHaveLength(300);
  const outsider = (await api.contacts.list({ search: 'Outsider' })).data[0];
  expect(outsider?.lists).toEqual([]);
  await job.getByRole('button', { name: 'Close' }).click();
  // The table shows the new memberships.
  await expect(page.getByRole('row').filter({ hasText: 'big' }).first()).toBeVisible();

  // A second run is a no-op: the dry run says so.
  await page.getByLabel('List', { exact: true }).selectOption('big');
  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(
    page.getByText('0 contacts will be added to big. 300 already as asked, left alone.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
  await page.getByRole('button', { name: 'Back' }).click();

  // On a selection: delete two contacts.
  await page.getByLabel('Select Person0001 Seeded').check();
  await page.getByLabel('Select Person0002 Seeded').check();
  // A selection is what the panel acts on unless told otherwise.
  await expect(page.getByLabel('The 2 selected')).toBeChecked();
  await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Delete' });
  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(page.getByText('2 contacts will be deleted')).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Finished. 2 of 2 done: 2 succeeded, 0 failed.')).toBeVisible();
  expect((await api.contacts.list({ search: 'Seeded', limit: 1 })).count).toBe(298);
  expect((await api.lists.get('big')).contacts).toHaveLength(298);
});

test('import a 500-row CSV with 3 bad rows: 497 imported, 3 reported; merge an existing address', async ({
  page,
  server,
}) => {
  test.setTimeout(300_000);
  const account = await createAccount(server, uniqueName('import'));
  const { key } = await createKey(server, { account: account.name });
  const api = apiAs(server, key);
  await api.lists.create({ name: 'imported' });
  const domain = `${account.name}.example`;
  const lines = ['First name,Surname,Email,Lists,Remarks'];
  for (let n = 1; n <= 500; n++) {
    const email = n === 100 ? 'broken-address' : n === 200 ? '' : `row${n}@${domain}`;
    const lists = n === 300 ? 'no such list!' : 'imported';
    lines.push(`Row${n},"Imported, ${n}",${email},${lists},ignored`);
  }
  await signInWithKey(page, key, { path: '/contacts' });
  await page.getByRole('link', { name: 'Import CSV' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import contacts' })).toBeVisible();
  await page.getByLabel('A CSV file').setInputFiles({
    name: 'contacts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lines.join('\r\n') + '\r\n'),
  });
  await expect(page.getByLabel('Import the column Email as')).toHaveValue('emails');
  await expect(page.getByLabel('Import the column Remarks as')).toHaveValue('ignore');
  await expect(
    page.getByText('497 rows ready to import; 3 with errors (not imported).'),
  ).toBeVisible();
  const errors = page.getByRole('list', { name: 'Rows with errors' });
  await expect(errors.getByRole('listitem')).toHaveText([
    'Line 101: emails (broken-address): is not a valid email address',
    'Line 201: emails: needs at least one email address',
    'Line 301: lists (no such list!): may hold only letters, digits, underscore, period and hyphen',
  ]);
  await expectNoAxeViolations(page, 'the import preview');
  await page.getByRole('button', { name: 'Import 497 contacts' }).click();
  const job = page.getByRole('region', { name: 'Import' });
  await expect(job.getByRole('status')).toHaveText(
    'Finished. 500 rows: 497 created, 0 merged, 0 skipped (address already in the account), 0 refused by the server, 3 invalid (not sent).',
    { timeout: 180_000 },
  );
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the 3 failed rows (CSV)' }).click();
  const rejected = parseCsv(
    Buffer.concat(await (await (await download).createReadStream()).toArray()).toString('utf8'),
  );
  expect(rejected.map((r) => r[0])).toEqual(['line', '101', '201', '301']);
  expect((await api.contacts.list({ search: 'Imported', limit: 1 })).count).toBe(497);
  expect((await api.lists.get('imported')).contacts).toHaveLength(497);

  // A second import: one new row, one whose address exists: merged into that contact.
  await page.getByRole('button', { name: 'Close' }).click();
  await page
    .getByLabel('Or paste CSV')
    .fill(`email,notes\r\nrow1@${domain},Merged note\r\nfresh@${domain},New one\r\n`);
  await page.getByRole('button', { name: 'Read the pasted CSV' }).click();
  await page.getByLabel('Merge the row into that contact').check();
  await page.getByRole('button', { name: 'Import 2 contacts' }).click();
  await expect(page.getByRole('region', { name: 'Import' }).getByRole('status')).toHaveText(
    'Finished. 2 rows: 1 created, 1 merged, 0 skipped (address already in the account), 0 refused by the server, 0 invalid (not sent).',
  );
  const [row1] = (await api.contacts.list({ email: `row1@${domain}` })).data;
  expect(row1?.notes).toBe('Merged note');
  expect(row1?.firstname).toBe('Row1');
});

test('import a ;-separated file: custom fields by name, an unknown list flagged, a refused row with the server’s reason, exactly the failed rows downloaded', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount(server, uniqueName('import-semi'));
  const { key } = await createKey(server, { account: account.name });
  await server.cli(['field', 'create', '--account', account.name, '--name', 'Shoe size']);
  const api = apiAs(server, key);
  await api.lists.create({ name: 'news' });
  const domain = `${account.name}.example`;
  await api.contacts.create({ emails: [`first@${domain}`] });
  const file = [
    'Email;First name;shoe size;Lists',
    `ann@${domain};Ann;42;news`,
    `bob@${domain};=Bob;43;nosuchlist`,
    `"twice@${domain};twice@${domain}";Twice;44;news`,
    `cy@${domain};Cy;45;`,
  ].join('\r\n');
  await signInWithKey(page, key, { path: '/contacts/import' });
  await page.getByLabel('Or paste CSV').fill(file);
  await page.getByRole('button', { name: 'Read the pasted CSV' }).click();
  await expect(page.getByLabel('Import the column Email as')).toHaveValue('emails');
  await expect(page.getByLabel('Import the column shoe size as')).toHaveValue('custom');
  await expect(
    page.getByText('3 rows ready to import; 1 with errors (not imported).'),
  ).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Rows with errors' }).getByRole('listitem'),
  ).toHaveText(['Line 3: lists: there is no list named nosuchlist in this account']);
  await page.getByRole('button', { name: 'Import 3 contacts' }).click();
  const job = page.getByRole('region', { name: 'Import' });
  await expect(job.getByRole('status')).toHaveText(
    'Finished. 4 rows: 2 created, 0 merged, 0 skipped (address already in the account), 1 refused by the server, 1 invalid (not sent).',
  );
  await expect(
    page.getByRole('list', { name: 'Rows with errors' }).getByRole('listitem'),
  ).toHaveText([
    'Line 3: lists: there is no list named nosuchlist in this account',
    `Line 4: emails: twice@${domain} is given twice`,
  ]);
  const download = page.waitForEvent('download');
  await job.getByRole('button', { name: 'Download the 2 failed rows (CSV)' }).click();
  const rejected = parseCsv(
    Buffer.concat(await (await (await download).createReadStream()).toArray()).toString('utf8'),
  );
  expect(rejected).toEqual([
    ['line', 'Email', 'First name', 'shoe size', 'Lists', 'error'],
    [
      '3',
      `bob@${domain}`,
      "'=Bob",
      '43',
      'nosuchlist',
      'lists: there is no list named nosuchlist in this account',
    ],
    [
      '4',
      `twice@${domain};twice@${domain}`,
      'Twice',
      '44',
      'news',
      `emails: twice@${domain} is given twice`,
    ],
  ]);
  const [ann] = (await api.contacts.list({ email: `ann@${domain}` })).data;
  expect(ann?.['Shoe size']).toBe('42');
  expect(ann?.lists.map((membership) => membership.list)).toEqual(['news']);
});
