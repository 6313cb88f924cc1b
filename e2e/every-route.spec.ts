import type { Page } from '@playwright/test';
import { holdMessages } from './fixtures/held.ts';
import { expectNoAxeViolations, themes, useTheme } from './fixtures/axe.ts';
import {
  apiAs,
  createAccount,
  createKey,
  expect,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import {
  expectPhoneFit,
  expectTablesAsCards,
  NARROWEST,
  openMenu,
  PHONE,
} from './fixtures/phone.ts';
import type { RunningServer } from './fixtures/server.ts';
import { xssCorpusText, xssPayload } from './fixtures/xss-corpus.ts';

// Reloads and addresses opened while signed in: the dashboard as `npm start` serves it, through the
// gateway, whose session outlives a reload (a key typed into `serve`'s own page does not, SECURITY.md 10).
test.use({ dashboardMode: 'gateway' });

/**
 * Issue #10 item 3 and SECURITY.md 14: every route of the dashboard, in both themes, with the XSS
 * corpus stored in every user-controlled field it shows. The fixture of ./fixtures/dashboard.ts
 * fails the test on any CSP violation, console error, dialog or XSS canary; here each page must
 * also have zero axe violations and show the payloads as the text they are.
 */

/** One account whose every free-text field holds a payload, and a global key to see it all. */
async function corpusAccount(server: RunningServer) {
  const account = await createAccount(server, `xss-${Date.now().toString(36)}`);
  const { key } = await createKey(server, 'global');
  const api = apiAs(server, key, account.id);
  let n = 0;
  const next = () => xssPayload(n++);

  await api.accounts.update(account.id, {
    description: next(),
    confirmation_subject: next(),
    confirmation_message: xssCorpusText,
    welcome_message: xssCorpusText,
  });
  const fieldName = next();
  const field = (await server.cli([
    'field',
    'create',
    '--account',
    account.name,
    '--name',
    fieldName,
    '--identifier',
    'favourite',
  ])) as { identifier: string };
  const contactName = { firstname: next(), surname: next() };
  const contact = await api.contacts.create({
    ...contactName,
    notes: xssCorpusText,
    emails: ['ada@corpus.example'],
    [field.identifier]: next(),
  });
  const listDescription = next();
  await api.lists.create({
    name: 'news',
    description: listDescription,
    notes: xssCorpusText,
    subject_prefix: next(),
    message_footer: xssCorpusText,
    message_footer_html: xssCorpusText,
    message_fronter: xssCorpusText,
    message_fronter_html: xssCorpusText,
    welcome_message_subject: next(),
    welcome_message: xssCorpusText,
    hold_subject: next(),
    hold_message: xssCorpusText,
    reject_subject: next(),
    reject_message: xssCorpusText,
  });
  await api.membership.create({ contact: contact.id, list: 'news' });
  const subject = next();
  await api.messages.send({
    list: 'news',
    subject,
    content_plain: xssCorpusText,
    content_html: xssCorpusText,
  });
  const [message] = (await api.messages.list({ limit: 1, direction: 'desc' })).data;
  if (!message) throw new Error('the message just sent is not listed');
  // A reply: the messages table shows a thread, its second row with no reply count of its own.
  await api.messages.send({
    list: 'news',
    subject: next(),
    content_plain: xssCorpusText,
    parent: message.id,
  });
  // Held for a moderator, as mail that arrived by SMTP would be.
  const heldSubject = next();
  await holdMessages(server, account.id, [
    { list: 'news', tag: 'corpus', subject: heldSubject, body: xssCorpusText, html: xssCorpusText },
  ]);
  const admin = { firstname: next(), surname: next() };
  // Usernames are unique across tenants: each corpus account (one per test) has its own.
  const username = `${uniqueName('moderator')}@corpus.example`;
  await api.users.create({ username, ...admin, welcome_email: false });
  return {
    account,
    key,
    contact,
    contactName,
    listDescription,
    subject,
    messageId: message.id,
    heldSubject,
    fieldName,
    admin,
    description: xssPayload(0),
  };
}

type Corpus = Awaited<ReturnType<typeof corpusAccount>>;

interface Route {
  name: string;
  path: (corpus: Corpus) => string;
  heading: (corpus: Corpus) => string;
  /** A payload this page shows: it must be there, as text. */
  shows?: (corpus: Corpus) => string;
}

const routes: Route[] = [
  {
    name: 'Contacts',
    path: ({ account }) => `/a/${account.id}/contacts`,
    heading: () => 'Contacts',
    shows: ({ contactName }) => contactName.firstname,
  },
  {
    name: 'a contact',
    path: ({ account, contact }) => `/a/${account.id}/contacts/${contact.id}`,
    heading: ({ contactName }) => `${contactName.firstname} ${contactName.surname}`,
  },
  {
    name: 'New contact',
    path: ({ account }) => `/a/${account.id}/contacts/new`,
    heading: () => 'New contact',
  },
  {
    name: 'Import contacts',
    path: ({ account }) => `/a/${account.id}/contacts/import`,
    heading: () => 'Import contacts',
  },
  {
    name: 'Lists',
    path: ({ account }) => `/a/${account.id}/lists`,
    heading: () => 'Lists',
    shows: ({ listDescription }) => listDescription,
  },
  {
    name: 'List settings',
    path: ({ account }) => `/a/${account.id}/lists/news`,
    heading: () => 'List news',
  },
  {
    name: 'List members',
    path: ({ account }) => `/a/${account.id}/lists/news/members`,
    heading: () => 'Members of news',
    shows: ({ contactName }) => contactName.firstname,
  },
  {
    name: 'Messages',
    path: ({ account }) => `/a/${account.id}/messages`,
    heading: () => 'Messages',
    shows: ({ subject }) => subject,
  },
  {
    name: 'a message',
    path: ({ account, messageId }) => `/a/${account.id}/messages/${messageId}`,
    heading: ({ subject }) => subject,
  },
  {
    name: 'New message',
    path: ({ account }) => `/a/${account.id}/messages/new`,
    heading: () => 'New message',
  },
  {
    name: 'Held messages',
    path: ({ account }) => `/a/${account.id}/held`,
    heading: () => 'Held messages',
    shows: ({ heldSubject }) => heldSubject,
  },
  {
    name: 'Requests to join and leave',
    path: ({ account }) => `/a/${account.id}/requests`,
    heading: () => 'Requests to join and leave',
    shows: () => 'No request waits.',
  },
  {
    name: 'Administrators',
    path: ({ account }) => `/a/${account.id}/administrators`,
    heading: () => 'Administrators',
    shows: ({ admin }) => admin.firstname,
  },
  {
    name: 'Custom fields',
    path: ({ account }) => `/a/${account.id}/fields`,
    heading: () => 'Custom fields',
    shows: ({ fieldName }) => fieldName,
  },
  {
    name: 'Accounts',
    path: () => '/accounts',
    heading: () => 'Accounts',
    shows: ({ description }) => description,
  },
  {
    name: 'Global administrators',
    path: () => '/accounts/administrators',
    heading: () => 'Global administrators',
  },
  { name: 'the 404 page', path: () => '/no-such-page', heading: () => 'Page not found' },
];

async function visit(page: Page, corpus: Corpus, route: Route, { axe = true } = {}) {
  await page.goto(route.path(corpus));
  await expect(
    page.getByRole('heading', { level: 1, name: route.heading(corpus), exact: true }),
  ).toBeVisible();
  if (route.shows) await expect(page.getByText(route.shows(corpus)).first()).toBeVisible();
  // Skeletons gone: axe judges the page as it settles.
  await expect(page.locator('.skeleton')).toHaveCount(0);
  if (axe) await expectNoAxeViolations(page, route.name);
}

for (const theme of themes) {
  test(`every route in the ${theme} theme: zero axe violations, the XSS corpus runs nowhere`, async ({
    page,
    server,
  }) => {
    test.slow(); // some twenty pages, each analysed by axe
    const corpus = await corpusAccount(server);

    await page.goto('/sign-in');
    await useTheme(page, theme);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectNoAxeViolations(page, 'the sign-in page');
    for (const problem of ['consent-denied', 'session-expired', 'key-refused']) {
      await page.goto(`/auth/${problem}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, `/auth/${problem}`);
    }
    await page.goto('/auth/callback?code=unused&state=unknown');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign-in failed' })).toBeVisible();
    await expectNoAxeViolations(page, 'the failed callback');

    await signInWithKey(page, corpus.key, { path: `/a/${corpus.account.id}/contacts` });
    for (const route of routes) await visit(page, corpus, route);

    // The dialogs of the shell.
    await page.goto(`/a/${corpus.account.id}/contacts`);
    await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
    await page.keyboard.press('s');
    const switcher = page.getByRole('dialog', { name: 'Switch account' });
    await expect(switcher).toBeVisible();
    await expectNoAxeViolations(page, 'the account switcher');
    await page.keyboard.press('Escape');
    await expect(switcher).toBeHidden();
    // An open dialog owns the keyboard (app-shell.tsx): wait until none is left open.
    await expect(page.locator('dialog[open]')).toHaveCount(0);
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expectNoAxeViolations(page, 'the shortcuts dialog');
  });
}

/** A list name of the longest kind (64 characters, spec §2.4) with nowhere to break. */
const LONG_LIST = 'l'.repeat(32) + 'o'.repeat(32);

test("every route at a phone's width: compact header, menu, cards, nothing scrolls sideways (dark theme, axe)", async ({
  page,
  server,
}) => {
  test.slow();
  const corpus = await corpusAccount(server);
  await apiAs(server, corpus.key, corpus.account.id).lists.create({
    name: LONG_LIST,
    description: 'A list with the longest name',
  });
  await page.setViewportSize(PHONE);
  await page.goto('/sign-in');
  await useTheme(page, 'dark');
  await signInWithKey(page, corpus.key, { path: `/a/${corpus.account.id}/contacts` });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const phoneRoutes: Route[] = [
    ...routes,
    {
      name: 'the settings of a list with a 64-character name',
      path: ({ account }) => `/a/${account.id}/lists/${LONG_LIST}`,
      heading: () => `List ${LONG_LIST}`,
    },
  ];
  // Axe (some 10 s a page here) where the phone layout differs most: the tables turned cards.
  const axeAtPhone = new Set(['Contacts', 'List members', 'Messages', 'Administrators']);
  let cardTables = 0;
  for (const route of phoneRoutes) {
    await visit(page, corpus, route, { axe: axeAtPhone.has(route.name) });
    await expectPhoneFit(page, `${route.name} at 390`);
    cardTables += await expectTablesAsCards(page, route.name);
    // The sections are behind the Menu button, and reachable there.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.setViewportSize(NARROWEST);
    await expectPhoneFit(page, `${route.name} at 320`);
    await page.setViewportSize(PHONE);
  }
  // Contacts, lists, members, messages, administrators, accounts, the contact's memberships…
  expect(cardTables).toBeGreaterThanOrEqual(6);

  // The menu: open, axe-clean, and it leads to another page, closing behind it.
  await page.goto(`/a/${corpus.account.id}/contacts`);
  await openMenu(page);
  await expectNoAxeViolations(page, 'the open menu at 390');
  await expectPhoneFit(page, 'the open menu', { menuOpen: true });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

  // The list settings' save bar stays on screen while the form scrolls by.
  await page.goto(`/a/${corpus.account.id}/lists/news`);
  const saveBar = page.getByRole('group', { name: 'Save' });
  for (const where of ['top', 'middle']) {
    if (where === 'middle')
      await page.getByRole('heading', { name: 'Archives' }).scrollIntoViewIfNeeded();
    const box = await saveBar.boundingBox();
    expect(box, `the save bar at the ${where}`).not.toBeNull();
    expect(box!.y + box!.height, `the save bar at the ${where}`).toBeLessThanOrEqual(PHONE.height);
    expect(box!.y, `the save bar at the ${where}`).toBeGreaterThanOrEqual(0);
    await expect(saveBar.getByRole('button', { name: 'Review and save' })).toBeInViewport();
  }

  // …is small on the narrowest phone: the words and the two buttons, not a quarter of the screen.
  await page.setViewportSize(NARROWEST);
  const narrowBar = await saveBar.boundingBox();
  expect(narrowBar!.height, 'the save bar at 320 px').toBeLessThanOrEqual(NARROWEST.height / 8);

  // …and never hides the field the keyboard is on (WCAG 2.4.11): Tab scrolls it above the bar.
  await page.getByLabel('Description').focus();
  const behindTheBar: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const hidden = await page.evaluate(() => {
      const focused = document.activeElement;
      const bar = document.querySelector('[role="group"][aria-label="Save"]');
      if (!focused || !bar || bar.contains(focused)) return null;
      const { top } = focused.getBoundingClientRect();
      return top >= bar.getBoundingClientRect().top
        ? (focused.getAttribute('name') ?? focused.tagName)
        : null;
    });
    if (hidden) behindTheBar.push(hidden);
  }
  expect(behindTheBar, 'fields reached with Tab but hidden behind the save bar').toEqual([]);
});
