import { accountWithContacts, signInWithKey } from './fixtures/dashboard.ts';
import { expect, test } from './fixtures/gateway.ts';

/**
 * Issue 17 item 9: what a signed-in page costs to load through `listkeeper dashboard`. Its scripts
 * come compressed as the build wrote them (gateway/precompress.ts), and `/config.json`, which
 * every route waits for, is asked for by the page itself (index.html's preload) and only once:
 * a preload the script's own request did not match would be fetched twice.
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
