import type { Email } from '../../api/schemas/email.ts';
import type { EmailRow } from './emails.repository.ts';

/** Row → spec §2.2 email. `contact` is how API calls name the contact (its ccid when enabled). */
export function toEmail(
  row: Pick<EmailRow, 'id' | 'email' | 'digest' | 'paused' | 'confirmed' | 'ceid'>,
  contact: number | string,
): Email {
  return {
    id: row.id,
    contact,
    email: row.email,
    digest: row.digest === 1,
    paused: row.paused === 1,
    confirmed: row.confirmed === 1,
    ceid: row.ceid,
  };
}
