import type { Kysely } from 'kysely';
import type { PostingDecision } from '../../api/posting-policy/types.ts';
import type { Database } from '../db/schema.ts';
import { insertHeld } from '../repositories/held.repository.ts';
import type { StoredHeldContent } from './held-content.ts';
import { storedAuthentication, type ReceivedAuthentication } from './received-authentication.ts';

/** A message the posting policy held, as the queue keeps it. */
export interface HeldMail {
  subject: string;
  fromPhrase: string;
  fromAddress: string;
  messageId: string;
  headers: readonly { name: string; value: string }[];
  /** The source, the text and the sender's HTML, as storeHeldContent made them. */
  content: StoredHeldContent;
  /** Bytes as received, headers included. */
  size: number;
  /**
   * Whether the From address may be answered: the message authenticated for its domain (or came
   * by no SMTP session to check, as the demo's own mail). A rejection tells only such a sender.
   */
  answerable: boolean;
  /** What sender verification found, carried into the archive on approval (issue 26 item 2). */
  received?: ReceivedAuthentication | null;
}

/**
 * Puts a held message in the queue with every holding rule that matched (a moderator sees them all,
 * as in Mailman 3's chain). Answers the held message's id.
 */
export function holdMail(
  db: Kysely<Database>,
  accountId: number,
  listId: number,
  mail: HeldMail,
  decision: Pick<PostingDecision, 'rule' | 'setting' | 'reason' | 'hits'>,
  now: Date,
): Promise<number> {
  const reasons = decision.hits
    .filter((hit) => hit.action === 'hold')
    .map(({ rule, setting, reason }) => ({ rule, setting, reason }));
  return insertHeld(db, {
    account_id: accountId,
    list_id: listId,
    subject: mail.subject,
    from_phrase: mail.fromPhrase,
    from_address: mail.fromAddress,
    received: Math.floor(now.getTime() / 1000),
    size: mail.size,
    message_id: mail.messageId,
    rule: decision.rule,
    setting: decision.setting,
    reason: decision.reason,
    reasons: JSON.stringify(
      reasons.length > 0
        ? reasons
        : [{ rule: decision.rule, setting: decision.setting, reason: decision.reason }],
    ),
    headers: JSON.stringify(mail.headers),
    ...mail.content,
    answerable: mail.answerable ? 1 : 0,
    received_authentication: mail.received ? storedAuthentication(mail.received) : null,
  });
}
