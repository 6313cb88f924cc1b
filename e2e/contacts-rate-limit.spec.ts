import type { Locator } from '@playwright/test';
import {
  apiAs,
  createAccount,
  createKey,
  expect,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import { useUpAllowance } from './fixtures/rate-limit.ts';

/** A short window (a server setting for tests), so that waiting for the reset takes seconds. */
test.use({ serverEnv: { RATE_LIMIT_WINDOW_SECONDS: '10' } });

type Api = ReturnType<typeof apiAs>;

/**
 * Uses up the account's allowance at least 6 s before its window resets, so that the dashboard's
 * next request is refused; answers when the allowance resets. The account needs a list: each read
 * of it costs one object.
 */
async function useUpAllowanceEarlyInAWindow(api: Api): Promise<Date> {
  return (await useUpAllowance(() => api.lists.list(), 6_000)).resetAt;
}

/** The job's wait is shown with the reset time; the job finishes by itself after it. */
async function expectWaitThenFinish(job: Locator, resetAt: Date, finished: string) {
  const wait = job.getByRole('alert');
  await expect(wait).toContainText('The hourly API allowance is used up.');
  const until = await wait.locator('time').getAttribute('datetime');
  expect(Date.parse(until ?? '')).toBeGreaterThanOrEqual(resetAt.getTime());
  await expect(job.getByText(finished)).toBeVisible({ timeout: 25_000 });
  expect(Date.now()).toBeGreaterThanOrEqual(resetAt.getTime());
}

// Spec §8: the allowance is 3 × the address book's maximum size: 30 objects a window here.
test('a bulk job that hits 429 waits for the reset shown on screen, then finishes', async ({
  page,
  server,
}) => {
  const account = await createAccount(server, uniqueName('tight'), { maxContacts: 10 });
  const { key } = await createKey(server, { account: account.name });
  const api = apiAs(server, key);
  await api.lists.create({ name: 'small' });
  for (let n = 1; n <= 6; n++) {
    await api.contacts.create({ firstname: `P${n}`, emails: [`p${n}@${account.name}.example`] });
  }
  await signInWithKey(page, key, { path: '/contacts' });
  await expect(page.getByRole('status').filter({ hasText: /^6 contacts/ })).toBeVisible();
  await page.getByText('Bulk actions').click();
  await page.getByLabel('List', { exact: true }).selectOption('small');
  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(page.getByText('6 contacts will be added to small.')).toBeVisible();

  const resetAt = await useUpAllowanceEarlyInAWindow(api);
  await page.getByRole('button', { name: 'Start' }).click();
  await expectWaitThenFinish(
    page.getByRole('region', { name: 'Add to a list: small' }),
    resetAt,
    'Finished. 6 of 6 done: 6 succeeded, 0 failed.',
  );
  expect((await api.lists.get('small')).contacts).toHaveLength(6);
});

test('an import that hits 429 waits for the reset shown on screen, then finishes', async ({
  page,
  server,
}) => {
  const account = await createAccount(server, uniqueName('tightimport'), { maxContacts: 10 });
  const { key } = await createKey(server, { account: account.name });
  const api = apiAs(server, key);
  // Reading an empty collection costs nothing: one list makes each read count.
  await api.lists.create({ name: 'counted' });
  const domain = `${account.name}.example`;
  const csv = ['email,firstname', ...Array.from({ length: 8 }, (_, i) => `i${i}@${domain},I${i}`)];
  await signInWithKey(page, key, { path: '/contacts/import' });
  await page.getByLabel('Or paste CSV').fill(csv.join('\n'));
  await page.getByRole('button', { name: 'Read the pasted CSV' }).click();
  await expect(page.getByText('8 rows ready to import; 0 with errors')).toBeVisible();

  const resetAt = await useUpAllowanceEarlyInAWindow(api);
  await page.getByRole('button', { name: 'Import 8 contacts' }).click();
  await expectWaitThenFinish(
    page.getByRole('region', { name: 'Import' }),
    resetAt,
    'Finished. 8 rows: 8 created, 0 merged, 0 skipped (address already in the account), 0 refused by the server, 0 invalid (not sent).',
  );
  expect((await api.contacts.list({ search: domain })).count).toBe(8);
});
