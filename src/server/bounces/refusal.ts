import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { Refused } from '../mail/transport.ts';
import { findEmailForLink } from '../repositories/member-directory.repository.ts';
import { recordBounce, type BounceEffect } from './score.ts';
import type { BounceSettings } from './settings.ts';

/**
 * A bounce at SMTP time (issue 26 item 1, listmonk #2623): the relay refused a delivery's
 * recipient at RCPT TO with a 5xx. It counts as a hard failure of that address on that list, as a
 * DSN would; a 4xx is retried by the outbox and counts nothing. The delivery is our own row, so no
 * token is needed to trust it.
 */
export async function recordRefusal(
  db: Kysely<Database>,
  unitOfWork: UnitOfWork,
  delivery: { listId: number; emailId: number },
  refused: Refused,
  now: Date,
  settings: BounceSettings,
): Promise<BounceEffect | null> {
  if (refused.code === null || refused.code < 500) return null;
  const email = await findEmailForLink(db, delivery.emailId);
  if (!email) return null;
  const status = refused.status ?? null;
  return unitOfWork((trx) =>
    recordBounce(
      trx,
      { accountId: email.account_id, listId: delivery.listId, emailId: email.id },
      {
        kind: 'hard',
        status,
        reason: `The relay refused the address at RCPT TO (${refused.code}${status ? ` ${status}` : ''})`,
      },
      now,
      settings,
    ),
  );
}
