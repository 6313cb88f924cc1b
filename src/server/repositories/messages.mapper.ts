import type { Message } from '../../api/schemas/message.ts';

/** A message row with its list's name, as the repository selects it. */
export interface MessageRow {
  id: number;
  list: string;
  list_id: number;
  subject: string;
  from_phrase: string;
  from_address: string;
  time: number;
  message_id: string;
  thread_id: number;
  parent_id: number | null;
  content_plain: string;
  content_html: string;
}

/** Row → spec §2.5 message. */
export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    subject: row.subject,
    from_phrase: row.from_phrase,
    from_address: row.from_address,
    list: row.list,
    // bigint on PostgreSQL: the pool parses it to a number (db/database.ts).
    time: Number(row.time),
    message_id: row.message_id,
    thread_id: row.thread_id,
    content_plain: row.content_plain,
    content_html: row.content_html,
    parent: row.parent_id,
  };
}
