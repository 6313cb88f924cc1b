import { signInWithKey } from './fixtures/dashboard.ts';
import { expectNoAxeViolations } from './fixtures/axe.ts';
import { accountWithDomain, expect, test as mailTest, type MailSink } from './fixtures/mail.ts';

/**
 * Issue 26 item 1, the dashboard's part: a delivery bounced by real SMTP (a Postfix report to the
 * VERP return path of a real post) pauses the address; the members page and the contact page mark
 * it with its score and last bounce, and "Clear bounces" resumes its delivery.
 */

// One hard bounce pauses (BOUNCE_SCORE_THRESHOLD): the day's single count reaches it.
const test = mailTest.extend<object, { serverEnv: Record<string, string> }>({
  serverEnv: [
    async ({ serverEnv }, use) => use({ ...serverEnv, BOUNCE_SCORE_THRESHOLD: '1' }),
    { scope: 'worker' },
  ],
});

test.use({ viewport: { width: 1440, height: 900 } });

/** The server's bounce fixtures (src/server/test/bounce-fixtures.ts), loaded like ./fixtures/mail.ts. */
async function postfixBounce(returnPath: string, recipient: string): Promise<string> {
  const module = (await import(
    new URL('../src/server/test/bounce-fixtures.ts', import.meta.url).href
  )) as {
    bounceFixture: (name: string, delivery: { returnPath: string; recipient: string }) => string;
  };
  return module.bounceFixture('postfix-failed', { returnPath, recipient });
}

async function copyTo(sink: MailSink, address: string, subject: string) {
  await expect
    .poll(() => sink.mails.some((m) => m.to.includes(address) && m.parsed.subject === subject))
    .toBe(true);
  return sink.mails.find((m) => m.to.includes(address) && m.parsed.subject === subject);
}

test('a bounced address is marked on the members and contact pages with its score and last bounce; Clear bounces resumes it', async ({
  page,
  server,
  mailSink,
  sendMail,
}) => {
  const { domain, key, api } = await accountWithDomain(server, 'bounces');
  await api.lists.create({ name: 'news' });
  const ann = `ann@${domain}`;
  const bob = `bob@${domain}`;
  await api.contacts.create({
    firstname: 'Ann',
    emails: [ann],
    lists: ['news'],
  });
  await api.contacts.create({ firstname: 'Bob', emails: [bob], lists: ['news'] });

  /** A real post whose copy to Ann bounces to its return path, as Postfix writes it: paused. */
  async function bouncePost(subject: string) {
    await api.messages.send({ list: 'news', subject, content_plain: 'Hello' });
    const returnPath = (await copyTo(mailSink, ann, subject))?.from ?? '';
    await sendMail({
      envelope: { from: '', to: [returnPath] },
      raw: await postfixBounce(returnPath, ann),
    });
    await expect.poll(async () => (await api.emails.get(ann)).paused).toBe(true);
  }

  await bouncePost('Meeting on Friday');

  await signInWithKey(page, key, { path: '/lists/news/members' });
  const table = page.getByRole('table');
  const annRow = table.getByRole('row').filter({ hasText: 'Ann' });
  const bobRow = table.getByRole('row').filter({ hasText: 'Bob' });
  await expect(annRow).toContainText('Paused by bounces');
  // Score and last bounce in text (screen readers read it as it shows), kind, status and reason.
  await expect(annRow).toContainText(
    /Score 1; last bounce .+: permanent failure 5\.1\.1, .*User unknown/,
  );
  await expect(bobRow).not.toContainText(/Paused by bounces|Bouncing|Score/);
  await expect(bobRow.getByRole('button', { name: /Clear bounces/ })).toHaveCount(0);
  await expectNoAxeViolations(page, 'the members page with a paused address');

  await annRow.getByRole('button', { name: `Clear bounces for ${ann}` }).click();
  const said = page.getByRole('status').filter({ hasText: 'Bounces cleared' });
  await expect(said).toHaveText(`Bounces cleared for ${ann}; its delivery resumes.`);
  await expect(said).toBeFocused();
  await expect(annRow).not.toContainText('Paused by bounces');
  expect((await api.emails.get(ann)).paused).toBe(false);

  // Bounced again: the contact page says why the address is paused, and clears it there too.
  await bouncePost('Minutes');

  await annRow.getByRole('link', { name: 'Ann' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ann' })).toBeVisible();
  const addresses = page.getByRole('table').filter({ hasText: ann });
  await expect(addresses).toContainText('Paused by bounces');
  await expect(addresses.getByLabel(`Paused for ${ann} (saved at once)`)).toBeChecked();
  await expectNoAxeViolations(page, 'the contact page with a paused address');
  await addresses.getByRole('button', { name: `Clear bounces for ${ann}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Bounces cleared' })).toHaveText(
    `Bounces cleared for ${ann}; its delivery resumes.`,
  );
  await expect(addresses.getByLabel(`Paused for ${ann} (saved at once)`)).not.toBeChecked();
  await expect(addresses).not.toContainText('Paused by bounces');
});
