import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures/server.ts';

const sections = ['Contacts', 'Lists', 'Messages', 'Administrators', 'Accounts'];

test('the shell loads, navigates, and has no axe violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Listkeeper' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of sections) {
    await expect(nav.getByRole('link', { name })).toBeVisible();
  }

  await nav.getByRole('link', { name: 'Lists' }).click();
  await expect(page).toHaveURL(/\/lists$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  await expect(page).toHaveTitle('Lists · Listkeeper');
  await expect(nav.getByRole('link', { name: 'Lists' })).toHaveAttribute('aria-current', 'page');

  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations).toEqual([]);
});

test('the dark theme has no axe violations either', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/contacts');
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations).toEqual([]);
});

test('client routes load directly and unknown ones show the not-found page', async ({ page }) => {
  // The server answers client routes with index.html (SPA fallback).
  await page.goto('/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('the skip link moves focus to the main content', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await skip.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});
