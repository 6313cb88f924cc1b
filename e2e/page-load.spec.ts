import { accountWithContacts, signInWithKey } from './fixtures/dashboard.ts';
import { expect, test } from './fixtures/gateway.ts';
import { accountWithList } from './fixtures/messages.ts';

/**
 * Issue 17 item 9: what a signed-in page costs to load through `listkeeper dashboard`. Its scripts
 * come compressed as the build wrote them (gateway/precompress.ts), and `/config.json`, which
 * every route waits for, is asked for by the page itself (index.html's preload) and only once:
 * a preload the script's own request did not match would be fetched twice. The sanitizer (about
 * 50 kB) loads when a preview comes near the screen, not with a page whose previews are far below.
 */
test.use({ viewport: { width: 1440, height: 900 } });

test('a reload of a signed-in page: compressed scripts, /config.json asked for once, by the page', async ({
  page,
  server,
}) => {
  const account = await accountWithContacts(server, 'load', ['Ada']);
  await signInWithKey(page, account.key, { path: '/contacts' });
  await expect(page.getByRole('cell', { name: `Ada ${account.name}` })).toBeVisible();

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const configRequests: string[] = [];
  cdp.on('Network.requestWillBeSent', (event) => {
    if (new URL(event.request.url).pathname === '/config.json')
      configRequests.push(event.initiator.type);
  });
  const scripts: { url: string; encoding: string | undefined }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'] });
  });

  await page.reload();
  await expect(page.getByRole('cell', { name: `Ada ${account.name}` })).toBeVisible();

  expect(configRequests).toEqual(['parser']);
  const entry = scripts.find(({ url }) => /\/assets\/index-[\w-]+\.js$/.test(url));
  expect(entry, scripts.map(({ url }) => url).join('\n')).toBeDefined();
  expect(entry?.encoding).toBe('br');
  // Every script worth compressing came compressed (the build leaves files under 1 kB as they are).
  expect(scripts.filter(({ encoding }) => encoding === 'br').length).toBeGreaterThan(5);
});

test("list settings: the sanitizer loads when the footer's preview comes near the screen, not with the page", async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'load-list');
  const sanitizer: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/safe-html-frame-[\w-]+\.js$/.test(request.url())) sanitizer.push(request.url());
  });
  await signInWithKey(page, account.key, { path: '/lists/news' });
  await expect(page.getByRole('heading', { level: 1, name: 'List news' })).toBeVisible();
  const content = page.getByRole('region', { name: 'Content', exact: true });
  const footer = content.locator('iframe[title="Preview of the HTML footer"]');
  // The page is painted and idle, and the previews are more than a screen below: not loaded.
  await page.waitForLoadState('networkidle');
  expect(sanitizer).toEqual([]);
  await expect(footer).toHaveCount(0);

  await content.getByLabel('Footer (HTML)').scrollIntoViewIfNeeded();
  await expect(footer).toBeVisible();
  expect(sanitizer).toHaveLength(1);
});
