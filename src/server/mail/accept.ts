import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { queueDeliveries } from '../repositories/messages.repository.ts';
import { archiveMail, type ArchivedMail } from './archive.ts';

/**
 * An accepted message (the posting policy's accept, or a moderator's approval): archived, threaded,
 * and one delivery queued per member address, in the caller's transaction so that either both
 * happen or neither. Answers the archived message's id.
 */
export async function acceptMail(
  db: Kysely<Database>,
  accountId: number,
  listId: number,
  mail: ArchivedMail,
  now: Date,
): Promise<number> {
  const messageId = await archiveMail(db, accountId, listId, mail, now);
  await queueDeliveries(db, { accountId, messageId, listId, created: now.toISOString() });
  return messageId;
}
