import type { MembersPage } from '../../../lib/list-member-pages.ts';
import { toCsv } from '../../../lib/csv.ts';

const DIGEST_TEXT = { true: 'digest', false: 'no digest', null: '' } as const;

/** One record per member: who, their addresses, and the membership's digest override. */
export function membersToCsv(rows: MembersPage['rows']): string {
  return toCsv([
    ['id', 'firstname', 'surname', 'emails', 'digest'],
    ...rows.map(({ contact, membership }) => [
      String(contact.id),
      contact.firstname,
      contact.surname,
      contact.emails.map((email) => email.email).join(';'),
      DIGEST_TEXT[String(membership.digest) as keyof typeof DIGEST_TEXT],
    ]),
  ]);
}
