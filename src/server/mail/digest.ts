import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { settingsOf } from '../repositories/lists.mapper.ts';
import { digestRows, insertNotices, markDigested } from '../repositories/notices.repository.ts';
import { listAddressOf } from './list-address.ts';

type DigestRow = Awaited<ReturnType<typeof digestRows>>[number];

/**
 * The daily digest (spec §2.3): members on digest (the membership's setting, else the address's)
 * got an outbox row in status `digest` for each accepted message. This collects them, per list and
 * address, into one digest notice each, and marks the rows done in the same transaction: a crash
 * leaves either both or neither. The outbox worker then sends the notices. Answers how many digests.
 */
export async function queueDigests(db: Kysely<Database>, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await digestRows(trx);
    if (rows.length === 0) return 0;
    const byList = new Map<number, DigestRow[]>();
    for (const row of rows) byList.set(row.list_id, [...(byList.get(row.list_id) ?? []), row]);
    let digests = 0;
    for (const listRows of byList.values()) {
      const first = listRows[0];
      if (!first) continue;
      const address = listAddressOf(first.list_name, first.domain);
      const settings = settingsOf({ settings: first.list_settings });
      // Members who wait for the same messages share one rendering.
      const byAddress = new Map<string, DigestRow[]>();
      for (const row of listRows)
        byAddress.set(row.address, [...(byAddress.get(row.address) ?? []), row]);
      const rendered = new Map<string, string>();
      const notices = [];
      for (const [to, messages] of byAddress) {
        const key = messages.map((m) => m.message_id).join(',');
        let body = rendered.get(key);
        if (body === undefined) {
          body = digestBody(address, messages, settings.message_footer);
          rendered.set(key, body);
        }
        notices.push({
          account_id: first.account_id,
          kind: 'digest',
          from_address: address,
          to_address: to,
          subject:
            `${settings.subject_prefix ? `${settings.subject_prefix} ` : ''}Digest of ${address}, ${now.toISOString().slice(0, 10)}, ${messages.length} message${messages.length === 1 ? '' : 's'}`.replace(
              /[\r\n]+/g,
              ' ',
            ),
          body,
          list_address: address,
          // Its one member: the outbox worker adds their one-click leave and page link (issue 25).
          list_id: first.list_id,
          email_id: messages[0]?.email_id ?? null,
          created: now.toISOString(),
        });
      }
      await insertNotices(trx, notices);
      digests += notices.length;
    }
    await markDigested(
      trx,
      rows.map((row) => row.id),
    );
    return digests;
  });
}

function digestBody(address: string, messages: readonly DigestRow[], footer: string): string {
  const contents = messages.map(
    (m, index) => `${index + 1}. ${m.subject} (${m.from_phrase || m.from_address})`,
  );
  const bodies = messages.map(
    (m, index) =>
      `----------------------------------------\n${index + 1}. ${m.subject}\nFrom: ${m.from_phrase ? `${m.from_phrase} <${m.from_address}>` : m.from_address}\nDate: ${new Date(Number(m.time) * 1000).toUTCString()}\n\n${m.content_plain}`,
  );
  return (
    [`Messages to ${address}:`, '', ...contents, '', ...bodies, '', footer].join('\n').trimEnd() +
    '\n'
  );
}
