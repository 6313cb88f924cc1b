import type { Page } from '@playwright/test';
import { signInWithKey } from './fixtures/dashboard.ts';
import { accountWithDomain, expect, test, type MailSink } from './fixtures/mail.ts';

/**
 * Issue 18 item 6: mail by real SMTP end to end. The server listens on SMTP_IN_PORT and sends
 * through SMTP_URL to a sink in this process; a moderator triages on the Held page.
 */

const subjects = (page: Page) => page.getByRole('table').locator('tbody [data-triage-link]');

/** The mails the sink took for `address`, as soon as there are some. */
async function mailsTo(sink: MailSink, address: string, subject: RegExp) {
  await expect
    .poll(
      () =>
        sink.mails.filter((m) => m.to.includes(address) && subject.test(m.parsed.subject ?? ''))
          .length,
      {
        message: `a mail to ${address} matching ${String(subject)}`,
      },
    )
    .toBeGreaterThan(0);
  return sink.mails.filter((m) => m.to.includes(address) && subject.test(m.parsed.subject ?? ''));
}

test('mail by SMTP: held on the Held page, approved with the keyboard, sent with prefix and footer and archived; a taboo match held naming its rule; a stranger to a restricted list rejected', async ({
  page,
  server,
  mailSink,
  sendMail,
}) => {
  const { name, domain, key, api } = await accountWithDomain(server, 'mail');
  await api.lists.create({
    name: 'moderated',
    moderate: 1,
    subject_prefix: '[moderated]',
    message_footer: 'You are on the moderated list.',
  });
  await api.lists.create({ name: 'taboo', taboo_body: ['forbidden\\s+word'] });
  await api.lists.create({
    name: 'restricted',
    moderate: 6,
    restrict_post_lists: ['restricted'],
    message_rejections: 2,
    send_reject_message: true,
    reject_message: 'No posting to $LISTNAME about "$SUBJECT".',
  });
  const member = `ann@${name}.example`;
  await api.contacts.create({ emails: [member], lists: ['moderated', 'restricted'] });

  const from = 'carol@outside.example';
  await sendMail({
    from,
    to: `moderated@${domain}`,
    subject: 'Meeting on Friday',
    text: 'See you there.',
  });
  await sendMail({
    from,
    to: `taboo@${domain}`,
    subject: 'Harmless subject',
    text: 'A forbidden  word.',
  });
  const stranger = 'stranger@outside.example';
  await sendMail({
    from: stranger,
    to: `restricted@${domain}`,
    subject: 'Buy now',
    text: 'Offer inside.',
  });

  await signInWithKey(page, key, { path: '/held' });
  await expect(subjects(page)).toHaveText(['Meeting on Friday', 'Harmless subject']);
  await expect(page.getByRole('table')).toContainText(
    'Taboo rule 1 of taboo_body (forbidden\\s+word) matches “forbidden word” in the body',
  );

  await page.keyboard.press('j');
  await expect(subjects(page).first()).toBeFocused();
  await page.keyboard.press('a');
  await expect(page.getByRole('status').filter({ hasText: /^Approved/ })).toHaveText(
    'Approved “Meeting on Friday”.',
  );
  await expect(subjects(page)).toHaveText(['Harmless subject']);

  const [delivered] = await mailsTo(mailSink, member, /^\[moderated\] Meeting on Friday$/);
  expect(delivered?.parsed.text).toContain('See you there.');
  expect(delivered?.parsed.text).toContain('You are on the moderated list.');
  // VERP (issue 26): the return path names this delivery's list and address.
  expect(delivered?.from).toMatch(
    new RegExp(`^moderated-bounces\\+[a-z2-7]+@${domain.replace(/\./g, '\\.')}$`),
  );
  expect((await api.messages.list()).data.map((m) => m.subject)).toEqual(['Meeting on Friday']);

  // The archive in the dashboard shows it too.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Messages' })
    .click();
  await expect(
    page.getByRole('table').getByRole('link', { name: 'Meeting on Friday', exact: true }),
  ).toBeVisible();

  const [rejected] = await mailsTo(mailSink, stranger, /./);
  expect(rejected?.parsed.text).toContain(`No posting to restricted@${domain} about "Buy now".`);
  expect(
    mailSink.mails.some((m) => m.to.includes(member) && /Buy now/.test(m.parsed.subject ?? '')),
  ).toBe(false);
});
