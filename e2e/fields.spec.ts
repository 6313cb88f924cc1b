import { expectNoAxeViolations } from './fixtures/axe.ts';
import {
  apiAs,
  createAccount,
  createKey,
  expect,
  reloadAndSignIn,
  signInWithKey,
  test,
  uniqueName,
} from './fixtures/dashboard.ts';
import { expectPhoneFit, expectTablesAsCards, NARROWEST } from './fixtures/phone.ts';

/**
 * Issue 27 item 1: the Custom fields page (reference-server extension `fields.*`) against the real
 * server: the account's fields with who is limited to them (spec §2.6 limit_metadata), defining
 * one (the server's refusal on the field it names), renaming one by keyboard (values and limits
 * follow), deleting with a confirmation, and the page at 320 px. Against a spec-only server the
 * page says the server does not offer it (e2e/spec-only.spec.ts).
 */
test('custom fields: list, define, rename, delete; errors on the field; keyboard, axe and 320 px', async ({
  page,
  server,
}) => {
  test.slow(); // axe twice and a dozen round trips on a loaded machine
  const account = await createAccount(server, uniqueName('fields'));
  const { key } = await createKey(server, { account: account.name });
  const api = apiAs(server, key);
  await server.cli(['field', 'create', '--account', account.name, '--name', 'Region']);
  const contact = await api.contacts.create({
    firstname: 'Ann',
    emails: [`ann@${account.name}.example`],
    Region: 'North',
  });
  const limited = await api.users.create({
    username: `${uniqueName('lee')}@example.com`,
    password: 'a password of length',
    permissions: ['contact', 'limit_metadata'],
    limit_metadata: ['Region'],
    welcome_email: false,
  });

  await signInWithKey(page, key, { path: '/contacts' });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Custom fields' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Custom fields' })).toBeVisible();
  const region = page.getByRole('row', { name: /^Region/ });
  await expect(region).toContainText('1'); // one contact has a value
  await expect(region).toContainText(limited.username ?? '');
  await expectNoAxeViolations(page, 'the Custom fields page');

  // Define: a standard field's name is refused by the server, on the name; the identifier's
  // rule is the contract's, said as it is typed.
  await page.getByRole('button', { name: 'Define a field' }).click();
  const define = page.getByRole('dialog', { name: 'Define a custom field' });
  await expect(define.getByLabel('Name')).toBeFocused();
  await define.getByLabel('Name').fill('emails');
  await define.getByRole('button', { name: 'Define the field' }).click();
  await expect(define.getByLabel('Name')).toHaveAccessibleDescription(
    /The name cannot be emails, a standard contact field\./,
  );
  await expect(define.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await define.getByLabel('Name').fill('Region');
  await define.getByRole('button', { name: 'Define the field' }).click();
  await expect(define.getByLabel('Name')).toHaveAccessibleDescription(
    /A custom field named or identified Region already exists\./,
  );
  await define.getByLabel('Name').fill('Shoe size');
  await define.getByLabel('Identifier (optional)').fill('shoe size');
  await define.getByRole('button', { name: 'Define the field' }).click();
  await expect(define.getByLabel('Identifier (optional)')).toHaveAccessibleDescription(
    /The identifier may hold only letters, digits, underscore, period and hyphen\./,
  );
  await define.getByLabel('Identifier (optional)').fill('shoe');
  await expect(define.getByText('Contacts will show it as “shoe”.')).toBeVisible();
  await define.getByRole('button', { name: 'Define the field' }).click();
  await expect(define).toBeHidden();
  await expect(
    page.getByText('Defined Shoe size: contacts show it as “shoe”.', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('row', { name: /^Shoe size shoe 0/ })).toBeVisible();
  expect(await api.contacts.get(contact.id)).toMatchObject({ shoe: '' });

  // Rename by keyboard: the values stay and the limit follows the new key.
  await region.getByRole('button', { name: 'Rename Region' }).focus();
  await page.keyboard.press('Enter');
  const rename = page.getByRole('dialog', { name: 'Rename Region' });
  await expect(rename).toContainText('The values of 1 contact stay with the field.');
  await expect(rename).toContainText(`follow the new name: ${limited.username ?? ''}`);
  await expect(rename.getByLabel('Name')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.type('area');
  await page.keyboard.press('Enter');
  await expect(rename).toBeHidden();
  await expect(
    page.getByText('Saved Region: contacts show it as “area”.', { exact: true }),
  ).toBeVisible();
  const read = await api.contacts.get(contact.id);
  expect(read).toMatchObject({ area: 'North' });
  expect(read).not.toHaveProperty('Region');
  expect((await api.users.get(limited.id)).limit_metadata).toEqual(['area']);

  // Delete: a field without values asks once; Escape leaves it be.
  const shoe = page.getByRole('row', { name: /^Shoe size/ });
  await shoe.getByRole('button', { name: 'Delete Shoe size' }).click();
  let remove = page.getByRole('dialog', { name: 'Delete the field Shoe size?' });
  await expect(remove).toContainText('No contact has a value for it.');
  await page.keyboard.press('Escape');
  await expect(remove).toBeHidden();
  await expect(shoe).toBeVisible();
  await shoe.getByRole('button', { name: 'Delete Shoe size' }).click();
  await remove.getByRole('button', { name: 'Delete the field' }).click();
  await expect(remove).toBeHidden();
  await expect(
    page.getByText('Deleted Shoe size: 0 contacts lost their value.', { exact: true }),
  ).toBeVisible();
  await expect(shoe).toHaveCount(0);

  // A field with values: its name is typed to confirm; the limit goes with it.
  const area = page.getByRole('row', { name: /^Region area/ });
  await area.getByRole('button', { name: 'Delete Region' }).click();
  remove = page.getByRole('dialog', { name: 'Delete the field Region?' });
  await expect(remove).toContainText('1 contact has a value');
  const confirm = remove.getByRole('button', { name: 'Delete the field' });
  await expect(confirm).toBeDisabled();
  await remove.getByLabel('Type Region to delete it and its values').fill('Region');
  await confirm.click();
  await expect(remove).toBeHidden();
  await expect(
    page.getByText(
      'Deleted Region: 1 contact lost its value, and 1 administrator lost it from their limits.',
      { exact: true },
    ),
  ).toBeVisible();
  await expect(page.getByText('No custom fields yet.')).toBeVisible();
  expect(await api.contacts.get(contact.id)).not.toHaveProperty('area');
  expect((await api.users.get(limited.id)).limit_metadata).toEqual([]);

  // At 320 px: the page fits, its rows are cards, the dialog's form works.
  await server.cli(['field', 'create', '--account', account.name, '--name', 'Pronouns']);
  await page.setViewportSize(NARROWEST);
  await reloadAndSignIn(page, key);
  await expect(page.getByRole('row', { name: /^Pronouns/ })).toBeVisible();
  await expectPhoneFit(page, 'the Custom fields page at 320 px');
  expect(await expectTablesAsCards(page, 'the Custom fields page at 320 px')).toBe(1);
  await page.getByRole('button', { name: 'Define a field' }).click();
  await expectPhoneFit(page, 'the define dialog at 320 px');
  await expectNoAxeViolations(page, 'the define dialog at 320 px');
});
