import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { PASSWORD_MIN_LENGTH } from '../../api/constants.ts';
import { oneLine } from '../../api/posting-policy/notice.ts';
import type { Database } from '../db/schema.ts';
import { insertNotices } from '../repositories/notices.repository.ts';

/**
 * The mail the reference server sends administrators (issue 27 item 4), queued in the caller's
 * transaction like every notice (members/member-mail.ts): it goes out exactly when the change it
 * tells of commits, through the outbox worker (mail/outbox.ts). Plain text; every value quoted
 * from outside is one line (SECURITY.md 37).
 */

/**
 * Who the mail is from: `no-reply@` the account's domain, the list domain its DNS is set up for
 * (README "Mail": SPF names the relay for it and DKIM_DOMAIN signs it, so DMARC passes and the
 * mail is not filed as spam), whose listener refuses a reply at RCPT (no list is named so), so it
 * is never a relay and nobody waits for an answer that cannot come. A global administrator, or an
 * account without a domain, has none: then the host of PUBLIC_URL, where the person is sent.
 */
export function administratorMailFrom(accountDomain: string | null, origin: string): string {
  if (accountDomain) return `no-reply@${accountDomain.toLowerCase()}`;
  const host = new URL(origin).hostname;
  // An address literal (RFC 5321 §4.1.3) when the server is reached by an IP address.
  return `no-reply@${isIP(host) === 4 ? `[${host}]` : host}`;
}

export interface WelcomeMail {
  /** The account it belongs to; null for a global administrator (spec §4.8). */
  accountId: number | null;
  /** The account's name, or null for the group's. */
  accountName: string | null;
  from: string;
  /** The administrator's username, an address (spec §2.6). */
  to: string;
  firstname: string;
  /** The one-time link to set a password (administrators/password-links.ts). */
  link: string;
  validDays: number;
  /** Where the dashboard's sign-in page is. */
  signInUrl: string;
}

/** Spec §2.6 `welcome_email`: "send a welcome email to a newly created administrator". */
export async function queueWelcomeMail(
  db: Kysely<Database>,
  mail: WelcomeMail,
  now: Date,
): Promise<void> {
  const where =
    mail.accountName === null ? 'the group' : `the account ${oneLine(mail.accountName)}`;
  const greeting =
    mail.firstname.trim() === '' ? 'Hello,' : `Hello ${oneLine(mail.firstname.trim())},`;
  const body = [
    greeting,
    '',
    `You are now an administrator of ${where} on Listkeeper, with the username ${oneLine(mail.to)}.`,
    '',
    `Choose your password (at least ${PASSWORD_MIN_LENGTH} characters) on this page:`,
    mail.link,
    '',
    `The link works once, for ${mail.validDays} days; after that, ask the administrator who added you.`,
    `Then sign in at ${mail.signInUrl} with your username and that password.`,
    '',
    'If you did not expect this mail, ignore it: nothing happens without the link. Do not forward it.',
  ].join('\n');
  await insertNotices(db, [
    {
      account_id: mail.accountId,
      kind: 'administrator-welcome',
      from_address: mail.from,
      to_address: mail.to,
      subject: oneLine(`Your administrator sign-in for ${mail.accountName ?? 'Listkeeper'}`),
      body,
      list_address: null,
      created: now.toISOString(),
    },
  ]);
}
