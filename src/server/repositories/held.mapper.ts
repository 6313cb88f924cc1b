import * as z from 'zod';
import type { HeldMessage, HeldMessageDetail, HeldReason } from '../../api/schemas/held.ts';

/** A held row with its list's name, as the repository selects it. */
export interface HeldRow {
  id: number;
  list: string;
  list_id: number;
  subject: string;
  from_phrase: string;
  from_address: string;
  received: number | string;
  size: number;
  message_id: string;
  rule: string;
  setting: string | null;
  reason: string;
  reasons: string;
}

export interface HeldDetailRow extends HeldRow {
  headers: string;
  raw_deflated: Buffer;
  plain_deflated: Buffer;
  html_deflated: Buffer | null;
  /** 1: the sender authenticated (or was not checked), and may be answered. */
  answerable: number;
  /** What sender verification found (mail/received-authentication.ts), JSON; null: nothing. */
  received_authentication: string | null;
}

const StoredReasons = z.array(
  z.object({ rule: z.string(), setting: z.string().nullable(), reason: z.string() }),
);
const StoredHeaders = z.array(z.object({ name: z.string(), value: z.string() }));

/** What the server wrote; a row it cannot read answers no reasons rather than failing the queue. */
function parseJson<T>(schema: z.ZodType<T>, text: string, fallback: T): T {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export function storedHeaders(
  row: Pick<HeldDetailRow, 'headers'>,
): { name: string; value: string }[] {
  return parseJson(StoredHeaders, row.headers, []);
}

export function toHeldMessage(row: HeldRow): HeldMessage {
  const reasons: HeldReason[] = parseJson(StoredReasons, row.reasons, []);
  return {
    id: row.id,
    list: row.list,
    subject: row.subject,
    from_phrase: row.from_phrase,
    from_address: row.from_address,
    // bigint on PostgreSQL: the pool parses it to a number (db/database.ts).
    received: Number(row.received),
    size: row.size,
    message_id: row.message_id,
    rule: row.rule,
    setting: row.setting,
    reason: row.reason,
    reasons,
  };
}

/** `content_html` is the sender's HTML, '' when there was none: the dashboard shows the text then. */
export function toHeldDetail(
  row: HeldDetailRow,
  content: { plain: string; html: string },
): HeldMessageDetail {
  return {
    ...toHeldMessage(row),
    content_plain: content.plain,
    content_html: content.html,
    headers: storedHeaders(row),
  };
}
