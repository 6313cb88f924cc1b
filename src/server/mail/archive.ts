import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findByMessageIds, insertMessage, setThread } from '../repositories/messages.repository.ts';
import { saveAuthentication } from '../repositories/outbox.repository.ts';
import type { ReceivedAuthentication } from './received-authentication.ts';

/** A message about to enter a list's archive (spec §2.5), from SMTP or from the held queue. */
export interface ArchivedMail {
  subject: string;
  fromPhrase: string;
  fromAddress: string;
  /** RFC 5322 msg-id with its angle brackets, as spec §2.5 `message_id` holds it. */
  messageId: string;
  /**
   * The msg-ids this message answers, nearest first: In-Reply-To, then References from the last
   * (RFC 5322 §3.6.4). The first one archived in the same list becomes the parent.
   */
  answers: readonly string[];
  contentPlain: string;
  contentHtml: string;
  /** What sender verification found, for the members' copies (issue 26 item 2); absent: nothing. */
  received?: ReceivedAuthentication | null;
}

/**
 * Archives the message in the list, threaded: its parent is the nearest message it answers that
 * the list holds, its thread the parent's; otherwise it starts a thread of its own (spec §2.5
 * `thread_id`, `parent`). Answers the new message's id.
 */
export async function archiveMail(
  db: Kysely<Database>,
  accountId: number,
  listId: number,
  mail: ArchivedMail,
  now: Date,
): Promise<number> {
  const parent = await findParent(db, accountId, listId, mail.answers);
  const id = await insertMessage(db, {
    account_id: accountId,
    list_id: listId,
    subject: mail.subject,
    from_phrase: mail.fromPhrase,
    from_address: mail.fromAddress,
    time: Math.floor(now.getTime() / 1000),
    message_id: mail.messageId,
    thread_id: parent?.thread_id ?? 0,
    parent_id: parent?.id ?? null,
    content_plain: mail.contentPlain,
    content_html: mail.contentHtml,
  });
  if (!parent) await setThread(db, id, id);
  if (mail.received) await saveAuthentication(db, id, mail.received);
  return id;
}

async function findParent(
  db: Kysely<Database>,
  accountId: number,
  listId: number,
  answers: readonly string[],
): Promise<{ id: number; thread_id: number } | undefined> {
  const wanted = [...new Set(answers)].slice(0, 50);
  const rows = await findByMessageIds(db, accountId, listId, wanted);
  for (const messageId of wanted) {
    const found = rows.find((row) => row.message_id === messageId);
    if (found) return found;
  }
  return undefined;
}
