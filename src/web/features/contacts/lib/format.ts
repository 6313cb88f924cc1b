import type { Contact } from '../../../../api/schemas/contact.ts';

/** "Ann Smith", or the first address when a contact has no name. */
export function fullName(contact: Pick<Contact, 'firstname' | 'surname' | 'emails'>): string {
  return (
    [contact.firstname, contact.surname].filter(Boolean).join(' ') ||
    contact.emails[0]?.email ||
    '(no name)'
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A creation date in the user's locale; text the browser cannot read is shown as it came. */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateFormat.format(time);
}
