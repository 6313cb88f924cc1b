import type { Page } from '@playwright/test';
import { ApiError } from '../src/api/errors.ts';
import {
  expect,
  reloadAndSignIn,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import { expectNoAxeViolations, themes, useTheme } from './fixtures/axe.ts';
import type { Message } from '../src/api/schemas/message.ts';
import { accountWithList, frameLoaded, sendMessage, startTracker } from './fixtures/messages.ts';
import { CANARY, XSS_CORPUS, XSS_HTML, trapXss, type XssTrap } from './fixtures/xss-corpus.ts';

// The tracker of these tests listens on 127.0.0.1: the image proxy may fetch from it.
test.use({ serverEnv: { IMAGE_PROXY_ALLOW_PRIVATE: '1' } });

const table = (page: Page) => page.getByRole('table');
const row = (page: Page, subject: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: subject, exact: true }) });

async function expectNothingRan(trap: XssTrap) {
  expect(trap.dialogs, 'dialogs opened by a payload').toEqual([]);
  expect(trap.pageErrors, 'uncaught errors').toEqual([]);
  expect(trap.consoleErrors, 'console errors').toEqual([]);
  expect(await trap.canarySet(), `window.${CANARY}`).toBe(false);
}

test('compose: send to a list with a preview, shown as queued, then found in the list', async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'compose');
  await account.api.lists.create({ name: 'events' });
  for (const name of ['ann', 'bob']) {
    await account.api.contacts.create({
      emails: [`${name}@${account.name}.example`],
      lists: ['news'],
    });
  }
  const trap = trapXss(page);
  await signInWithKey(page, account.key, { path: '/messages' });
  await expect(page.getByText('No messages yet.')).toBeVisible();

  await page.getByRole('link', { name: 'New message' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible();
  await expect(
    page.getByText(/overrides the list’s posting restrictions: the message/),
  ).toBeVisible();
  // No spec references in what users read.
  await expect(page.getByText(/spec §/)).toHaveCount(0);
  await expectNoAxeViolations(page, 'the compose form');

  // The contract's rules, on the fields.
  await page.getByRole('button', { name: 'Send to the list' }).click();
  await expect(page.getByText('Choose the list to send to.')).toBeVisible();
  await expect(
    page.getByText('Write the message: the plain text, the HTML, or both.'),
  ).toBeVisible();
  await expect(page.getByLabel('List')).toHaveAttribute('aria-invalid', 'true');

  const subject = uniqueName('Welcome');
  await page.getByLabel('List').selectOption('news');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Plain text').fill('Hello <members> & friends,\n\nSee you soon.');
  // Without HTML, the preview is what the server will generate (the same plainToHtml).
  const preview = page.frameLocator('iframe[title="Preview of the HTML"]');
  await expect(
    page.getByText('Preview of the HTML the server will make from the plain text'),
  ).toBeVisible();
  await expect(preview.locator('p').first()).toHaveText('Hello <members> & friends,');
  await expect(preview.locator('p')).toHaveCount(2);

  // With HTML, the preview is that HTML, sanitized as every message is shown.
  await page.getByLabel('HTML (optional)').fill(`<p><b>Bold</b> news</p>${XSS_HTML}`);
  await expect(preview.locator('b')).toHaveText('Bold');
  await expect(preview.locator('script, iframe, object, embed, [onerror], [onload]')).toHaveCount(
    0,
  );

  // Nothing written is lost by leaving the page by mistake.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Messages' })
    .click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toContainText('This message is not sent.');
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page.getByLabel('Subject')).toHaveValue(subject);

  // The server's refusal lands on the field it names (form kit): the list went meanwhile.
  await page.getByLabel('List').selectOption('events');
  await account.api.lists.delete('events');
  await page.getByRole('button', { name: 'Send to the list' }).click();
  await page
    .getByRole('dialog', { name: 'Send to events?' })
    .getByRole('button', { name: /^Send/ })
    .click();
  await expect(page.getByLabel('List')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveText('No list named events in this account.');
  await expect(page.getByLabel('Subject')).toHaveValue(subject);
  await page.getByLabel('List').selectOption('news');

  await page.getByRole('button', { name: 'Send to the list' }).click();
  // Confirmed first, naming the list and how many members it reaches; cancelling sends nothing.
  const confirm = page.getByRole('dialog', { name: 'Send to news?' });
  await expect(confirm).toContainText('The message goes to the 2 members of news');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect((await account.api.messages.list()).data.some((m) => m.subject === subject)).toBe(false);
  await page.getByRole('button', { name: 'Send to the list' }).click();
  await confirm.getByRole('button', { name: 'Send to 2 members' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued' })).toHaveText(
    /Queued: the message to news is being processed\./,
  );
  await expect(page.getByLabel('Subject')).toHaveValue('');
  await expectNothingRan(trap);

  const { data } = await account.api.messages.list();
  const sent = data.find((m) => m.subject === subject);
  expect(sent?.content_plain).toBe('Hello <members> & friends,\n\nSee you soon.');
  expect(sent?.content_html.startsWith('<p><b>Bold</b> news</p>')).toBe(true);

  await page.getByRole('link', { name: 'See the messages' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(row(page, subject)).toContainText('news');
});

test('threads: grouped with reply counts; a message shows its headers, parent, replies and sender', async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'threads');
  const { api } = account;
  await api.contacts.create({
    firstname: 'Ann',
    surname: 'Lee',
    emails: [`ann@${account.name}.example`],
  });
  const root = await sendMessage(api, {
    list: 'news',
    subject: 'Picnic',
    from_phrase: 'Ann Lee',
    from_address: `ann@${account.name}.example`,
    content_plain: 'Shall we?',
  });
  const reply = await sendMessage(api, {
    list: 'news',
    subject: 'Re: Picnic',
    from_phrase: 'Bob Builder',
    from_address: 'bob@elsewhere.example',
    content_plain: 'Yes, Sunday.',
    parent: root.id,
  });
  await sendMessage(api, {
    list: 'news',
    subject: 'Re: Re: Picnic',
    from_address: `ann@${account.name}.example`,
    content_plain: 'Sunday it is.',
    parent: reply.id,
  });
  await sendMessage(api, { list: 'news', subject: 'Other topic', content_plain: 'Unrelated.' });

  await signInWithKey(page, account.key, { path: '/messages' });
  await expect(page.getByText('4 messages, in 2 threads here')).toBeVisible();
  // The newest thread first; inside a thread, the conversation in order.
  const subjects = await table(page).getByRole('link').allTextContents();
  expect(subjects).toEqual(['Other topic', 'Picnic', 'Re: Picnic', 'Re: Re: Picnic']);
  await expect(row(page, 'Picnic').getByRole('cell').last()).toHaveText('2');
  await expect(row(page, 'Re: Picnic')).toContainText('Reply:');
  await expect(row(page, 'Re: Picnic')).toContainText('Bob Builder');
  await expectNoAxeViolations(page, 'the messages list');

  await page.getByRole('link', { name: 'Re: Picnic', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Re: Picnic' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Bob Builder' })).toContainText(
    '<bob@elsewhere.example>',
  );
  // Bob is no contact of the account: no link to one.
  await expect(page.getByRole('link', { name: 'The sender’s contact' })).toHaveCount(0);
  const thread = page.getByRole('region', { name: 'Thread' });
  await expect(thread).toContainText('3 messages in the thread; 1 reply to this one.');
  await expect(thread.getByRole('link')).toHaveText(['Picnic', 'Re: Re: Picnic']);
  await expect(thread.getByText('Re: Picnic (this message)')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'HTML', selected: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Plain text' }).click();
  await expect(page.getByRole('tabpanel')).toHaveText('Yes, Sunday.');
  await expectNoAxeViolations(page, 'a message page');

  await page.getByRole('link', { name: 'The message it answers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Picnic' })).toBeVisible();
  await page.getByRole('link', { name: 'The sender’s contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ann Lee' })).toBeVisible();
});

test('the list goes newest or oldest first, 10, 50 or 100 a page, kept in the URL', async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'paging');
  for (let n = 1; n <= 12; n += 1) {
    await account.api.messages.send({
      list: 'news',
      subject: `Note ${String(n).padStart(2, '0')}`,
      content_plain: 'x',
    });
  }
  // The URL's state survives a reload (and the sign-in it asks for, SECURITY.md 10).
  await signInWithKey(page, account.key, { path: '/messages' });
  await expect(page.getByText('12 messages; page 1 of 2')).toBeVisible();
  await expect(table(page).getByRole('link').first()).toHaveText('Note 12');
  await expect(table(page).getByRole('link')).toHaveCount(10);

  await page.getByLabel('Order').selectOption({ label: 'Oldest first' });
  await expect(page).toHaveURL(/direction=asc/);
  await expect(table(page).getByRole('link').first()).toHaveText('Note 01');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('12 messages; page 2 of 2')).toBeVisible();
  await expect(table(page).getByRole('link')).toHaveText(['Note 11', 'Note 12']);

  await page.getByLabel('Per page').selectOption('50');
  await expect(page).toHaveURL(/limit=50/);
  await expect(table(page).getByRole('link')).toHaveCount(12);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toHaveCount(0);
  await reloadAndSignIn(page, account.key);
  await expect(table(page).getByRole('link').first()).toHaveText('Note 01');
});

test('delete one message from its page, and a selection in bulk', async ({ page, server }) => {
  const account = await accountWithList(server, 'delete');
  const { api } = account;
  const doomed = await sendMessage(api, { list: 'news', subject: 'Spam one', content_plain: 'x' });
  await sendMessage(api, { list: 'news', subject: 'Spam two', content_plain: 'x' });
  await sendMessage(api, { list: 'news', subject: 'Spam three', content_plain: 'x' });
  await sendMessage(api, { list: 'news', subject: 'Keep me', content_plain: 'x' });
  await signInWithKey(page, account.key, { path: '/messages' });

  await page.getByRole('link', { name: 'Spam one' }).click();
  await page.getByRole('button', { name: 'Delete the message' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the message “Spam one”?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'the delete dialog');
  await dialog.getByRole('button', { name: 'Delete the message' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(table(page).getByRole('link', { name: 'Spam one' })).toHaveCount(0);
  await expect(api.messages.get(doomed.id)).rejects.toBeInstanceOf(ApiError);

  await page.getByRole('checkbox', { name: 'Select “Spam two”' }).check();
  await page.getByRole('checkbox', { name: 'Select “Spam three”' }).check();
  await page.getByRole('button', { name: 'Delete selected (2)' }).click();
  const bulk = page.getByRole('dialog', { name: 'Delete 2 messages?' });
  await expect(bulk.getByRole('listitem')).toHaveText(['Spam two', 'Spam three']);
  await bulk.getByRole('button', { name: 'Delete the 2 messages' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Finished.' })).toHaveText(
    'Finished. 2 of 2 done: 2 succeeded, 0 failed.',
  );
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(table(page).getByRole('link')).toHaveText(['Keep me']);
  expect((await api.messages.list()).data.map((m) => m.subject)).toEqual(['Keep me']);
});

test('keyboard triage: j and k move, x selects, Enter opens, Delete asks, ? lists the keys', async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'keys');
  for (const subject of ['First', 'Second', 'Third']) {
    await account.api.messages.send({ list: 'news', subject, content_plain: subject });
  }
  await signInWithKey(page, account.key, { path: '/messages' });
  const link = (subject: string) => table(page).getByRole('link', { name: subject, exact: true });
  await expect(link('Third')).toBeVisible();

  await page.keyboard.press('j');
  await expect(link('Third')).toBeFocused();
  await expect(row(page, 'Third')).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('j');
  await expect(link('Second')).toBeFocused();
  await page.keyboard.press('k');
  await expect(link('Third')).toBeFocused();
  await page.keyboard.press('x');
  await expect(page.getByRole('checkbox', { name: 'Select “Third”' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Delete selected (1)' })).toBeEnabled();
  await page.keyboard.press('x');
  await expect(page.getByRole('checkbox', { name: 'Select “Third”' })).not.toBeChecked();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('table', { name: 'On this page' })).toContainText('Next message');
  for (const description of [
    'Previous message',
    'Open the message',
    'Delete the message (asks first)',
  ]) {
    await expect(help).toContainText(description);
  }
  await expectNoAxeViolations(page, 'the shortcuts dialog with the page’s keys');
  await page.keyboard.press('Escape');
  await expect(link('Third')).toBeFocused();

  // Delete asks; Enter on the focused confirmation deletes; triage goes on with the next row.
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete the message “Third”?' });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(link('Third')).toHaveCount(0);
  await expect(link('Second')).toBeFocused();

  // Enter opens the current message, from its link or from elsewhere on the page.
  await page.getByRole('heading', { level: 1, name: 'Messages' }).click();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Second' })).toBeVisible();

  // The page's keys leave with the page; the message page has its own.
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  await expect(help).not.toContainText('Open the message');
  await expect(help).toContainText('Delete the message and show the next (asks first)');
});

test('moderating from a message: filter by list, search the page, next and previous, delete-and-next asks nothing more of the deleted message', async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'step');
  const { api } = account;
  await api.lists.create({ name: 'events' });
  const sent: Record<string, Message> = {};
  for (const [subject, list] of [
    ['Alpha', 'news'],
    ['Beta', 'events'],
    ['Gamma', 'news'],
    ['Delta', 'news'],
  ] as const) {
    sent[subject] = await sendMessage(api, { list, subject, content_plain: `About ${subject}` });
  }
  const gamma = sent.Gamma as Message;
  await signInWithKey(page, account.key, { path: '/messages' });
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });

  // Filter by list, then search in what is loaded; both stay in the URL.
  await page.getByLabel('List', { exact: true }).selectOption('news');
  await expect(table(page).getByRole('link')).toHaveText(['Delta', 'Gamma', 'Alpha']);
  await expect(page).toHaveURL(/list=news/);
  await page.getByLabel('Search this page').fill('about gam');
  await expect(table(page).getByRole('link')).toHaveText(['Gamma']);
  await expect(page.getByText('1 of the 4 on this page matches')).toBeVisible();
  await page.getByLabel('Search this page').fill('nothing like it');
  await expect(page.getByText('None of the 4 messages on this page matches')).toBeVisible();
  await page.getByLabel('Search this page').fill('');

  // Next and previous follow the filtered list, by link and by key.
  await table(page).getByRole('link', { name: 'Delta' }).click();
  await expect(heading('Delta')).toBeVisible();
  const stepper = page.getByRole('navigation', { name: 'Messages of the list' });
  await expect(stepper).toContainText('1 of 3 on this page');
  await expect(stepper.getByRole('link', { name: 'Next: Gamma' })).toBeVisible();
  await page.keyboard.press('j');
  await expect(heading('Gamma')).toBeVisible();
  await page.keyboard.press('k');
  await expect(heading('Delta')).toBeVisible();
  await stepper.getByRole('link', { name: 'Next: Gamma' }).click();
  await expect(heading('Gamma')).toBeVisible();
  await expect(stepper.getByRole('link', { name: 'Next: Alpha' })).toBeVisible();

  // Delete-and-next; from then on, nothing asks for the deleted message.
  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
  await page.getByRole('button', { name: 'Delete and show the next' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the message “Gamma”?' })
    .getByRole('button', {
      name: 'Delete the message',
    })
    .click();
  await expect(heading('Alpha')).toBeVisible();
  await expect(page).toHaveURL(/list=news/);
  await expect(stepper.getByRole('link', { name: 'Previous: Delta' })).toBeVisible();
  await page.keyboard.press('k');
  await expect(heading('Delta')).toBeVisible();
  await page.goBack();
  await page.goBack();
  await expect(page.getByText('This message was deleted.')).toBeVisible();
  await page.getByRole('link', { name: 'All messages' }).click();
  await expect(table(page).getByRole('link')).toHaveText(['Delta', 'Alpha']);
  await page.waitForLoadState('networkidle');
  const deletion = requests.findIndex((line) => line.startsWith('DELETE '));
  expect(deletion, 'the deletion').toBeGreaterThanOrEqual(0);
  const aboutGamma = new RegExp(`/api/2/messages/${gamma.id}/`);
  expect(requests.slice(deletion + 1).filter((line) => aboutGamma.test(line))).toEqual([]);
  await expect(api.messages.get(gamma.id)).rejects.toBeInstanceOf(ApiError);
});

test('an HTML message with a tracker and the XSS corpus runs nothing and fetches nothing until "show images"', async ({
  page,
  server,
}) => {
  const tracker = await startTracker();
  const account = await accountWithList(server, 'tracked');
  const t = tracker.origin;
  const html = [
    '<p>Tracked newsletter</p>',
    `<img src="${t}/pixel.gif?recipient=1&amp;campaign=2" width="1" height="1" alt="">`,
    `<img src="${t}/banner.png" alt="Banner" width="20" height="20">`,
    `<img src="${t}/banner.png" alt="The same banner again">`,
    `<img srcset="${t}/srcset.png 2x" alt="">`,
    `<table background="${t}/background.png"><tr><td>cell</td></tr></table>`,
    `<div style="background-image: url(${t}/css-background.png)">styled</div>`,
    `<link rel="stylesheet" href="${t}/style.css">`,
    `<style>@import url(${t}/import.css); body { background: url(${t}/body.png) }</style>`,
    `<video poster="${t}/poster.png"></video>`,
    `<a href="${t}/click">a link, never fetched unless followed</a>`,
    XSS_HTML,
  ].join('\n');
  const subject = `Tracked ${XSS_CORPUS[0]} ${XSS_CORPUS[5]}`;
  const message = await sendMessage(account.api, {
    list: 'news',
    subject,
    from_phrase: XSS_CORPUS[1] ?? '',
    content_plain: `Plain ${XSS_HTML}`,
    content_html: html,
  });
  const trap = trapXss(page);
  const browserToTracker: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(t)) browserToTracker.push(request.url());
  });

  try {
    await signInWithKey(page, account.key, { path: '/messages' });
    // Text fields are text: the subject and the sender show as typed.
    await expect(table(page).getByRole('link', { name: subject })).toBeVisible();
    await expect(table(page)).toContainText(XSS_CORPUS[1] ?? '');
    await table(page).getByRole('link', { name: subject }).click();
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();

    const frame = page.frameLocator('iframe[title="The message as HTML"]');
    await expect(frame.getByText('Tracked newsletter')).toBeVisible();
    await expect(
      frame.locator('script, iframe, object, embed, base, meta, link, style'),
    ).toHaveCount(0);
    await expect(frame.locator('[onerror], [onload], [onfocus], [ontoggle], [style]')).toHaveCount(
      0,
    );
    await expect(frame.locator('[href^="javascript:" i], [href^="data:" i]')).toHaveCount(0);
    await expect(page.getByText('2 remote images are blocked')).toBeVisible();
    await expectNoAxeViolations(page, 'a message with blocked images');
    await frameLoaded(page, 'The message as HTML');
    expect(tracker.requests, 'requests to the tracker before "show images"').toEqual([]);
    expect(browserToTracker).toEqual([]);

    await page.getByRole('button', { name: 'Show images' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'fetched through the server' }),
    ).toHaveText('2 images shown, fetched through the server.');
    const banner = frame.getByRole('img', { name: 'Banner', exact: true });
    await expect(banner).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect
      .poll(() => banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(2);
    await expect(frame.getByRole('img', { name: 'The same banner again' })).toHaveAttribute(
      'src',
      /^data:image\/png;base64,/,
    );
    // Only the two images, fetched by the server; the browser still never asked the tracker.
    expect([...tracker.requests].sort()).toEqual([
      '/banner.png',
      '/pixel.gif?recipient=1&campaign=2',
    ]);
    expect(browserToTracker).toEqual([]);

    await page.getByRole('tab', { name: 'Plain text' }).click();
    await expect(page.getByRole('tabpanel')).toContainText(`Plain ${XSS_CORPUS[0] ?? ''}`);
    await page.getByRole('link', { name: 'All messages' }).click();
    await expect(table(page).getByRole('link', { name: subject })).toBeVisible();
    await expectNothingRan(trap);
    expect((await account.api.messages.get(message.id)).content_html).toBe(html);
  } finally {
    await tracker.close();
  }
});

test('the viewer and the compose preview keep the inline styles a mail program shows, and nothing that fetches', async ({
  page,
  server,
}) => {
  const tracker = await startTracker();
  const account = await accountWithList(server, 'styled');
  const html = [
    '<p style="color: rgb(200, 0, 0); font-weight: bold">Red and bold</p>',
    `<p style="background: url(${tracker.origin}/css.png); color: rgb(0, 0, 200)">Blue, no background</p>`,
    '<table><tr><td style="padding: 12px; border: 2px solid rgb(0, 128, 0)">Boxed</td></tr></table>',
  ].join('\n');
  const subject = uniqueName('Styled');
  try {
    await sendMessage(account.api, { list: 'news', subject, content_html: html });
    await signInWithKey(page, account.key, { path: '/messages' });
    await table(page).getByRole('link', { name: subject }).click();
    const frame = page.frameLocator('iframe[title="The message as HTML"]');
    const styleOf = (text: string, property: string) =>
      frame
        .getByText(text)
        .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
    await expect.poll(() => styleOf('Red and bold', 'color')).toBe('rgb(200, 0, 0)');
    expect(await styleOf('Red and bold', 'font-weight')).toBe('700');
    expect(await styleOf('Blue, no background', 'color')).toBe('rgb(0, 0, 200)');
    expect(await styleOf('Blue, no background', 'background-image')).toBe('none');
    expect(await styleOf('Boxed', 'padding-top')).toBe('12px');
    expect(await styleOf('Boxed', 'border-top-color')).toBe('rgb(0, 128, 0)');
    await frameLoaded(page, 'The message as HTML');
    // The frame stays without scripts.
    expect(await page.locator('iframe[title="The message as HTML"]').getAttribute('sandbox')).toBe(
      'allow-same-origin',
    );

    // Compose previews the same way.
    await page.getByRole('link', { name: 'All messages' }).click();
    await page.getByRole('link', { name: 'New message' }).click();
    await page.getByLabel('HTML (optional)').fill(html);
    const preview = page.frameLocator('iframe[title="Preview of the HTML"]');
    await expect
      .poll(() =>
        preview.getByText('Red and bold').evaluate((element) => getComputedStyle(element).color),
      )
      .toBe('rgb(200, 0, 0)');
    await frameLoaded(page, 'Preview of the HTML');
    expect(tracker.requests, 'requests to the tracker').toEqual([]);
  } finally {
    await tracker.close();
  }
});

test('against a server without the image proxy, images are said to be unavailable', async ({
  page,
  server,
}) => {
  const account = await accountWithList(server, 'foreign');
  await sendMessage(account.api, {
    list: 'news',
    subject: 'Remote banner',
    content_html: '<p>Hi</p><img src="https://images.example/banner.png" alt="Banner">',
  });
  // What a server without the extension answers for its path (spec §7: no such request).
  await page.route('**/api/2/messages/*/images/**', (route) =>
    route.fulfill({
      status: 404,
      json: { is_error: true, message: 'The API request does not exist' },
    }),
  );
  await signInWithKey(page, account.key, { path: '/messages' });
  await page.getByRole('link', { name: 'Remote banner' }).click();
  await page.getByRole('button', { name: 'Show images' }).click();
  await expect(page.getByText('This server cannot show remote images')).toBeVisible();
  await expect(
    page.frameLocator('iframe[title="The message as HTML"]').getByRole('img', { name: 'Banner' }),
  ).not.toHaveAttribute('src', /.+/);
});

for (const theme of themes) {
  test(`the messages pages have zero axe violations in the ${theme} theme`, async ({
    page,
    server,
  }) => {
    const account = await accountWithList(server, `axe-${theme}`);
    const root = await sendMessage(account.api, {
      list: 'news',
      subject: 'Agenda',
      from_phrase: 'Chair',
      from_address: 'chair@example.org',
      content_html:
        '<h1>Agenda</h1><p>Items</p><img src="https://images.example/logo.png" alt="Logo">',
    });
    await sendMessage(account.api, {
      list: 'news',
      subject: 'Re: Agenda',
      content_plain: 'Thanks',
      parent: root.id,
    });
    await page.goto('/sign-in');
    await useTheme(page, theme);
    await signInWithKey(page, account.key, { path: '/messages' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(table(page).getByRole('link', { name: 'Re: Agenda' })).toBeVisible();
    await page.keyboard.press('j');
    await expectNoAxeViolations(page, 'the messages list');
    await table(page).getByRole('link', { name: 'Agenda', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Thread' })).toContainText(
      '2 messages in the thread',
    );
    await expectNoAxeViolations(page, 'a message page');
    await page.getByRole('link', { name: 'All messages' }).click();
    await page.getByRole('link', { name: 'New message' }).click();
    await page.getByRole('button', { name: 'Send to the list' }).click();
    await expect(page.getByText('Choose the list to send to.')).toBeVisible();
    await expectNoAxeViolations(page, 'the compose form with errors');
  });
}
