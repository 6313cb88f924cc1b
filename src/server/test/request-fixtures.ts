import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

let requests = 0;

/**
 * A request that waits for a moderator (issue 25, extension `requests.*`), put straight into the
 * queue as the workflow leaves it once the address confirmed: for tests of the queue's API and the
 * dashboard's Requests page, without the mail round trip.
 */
export async function insertWaitingRequest(
  db: Kysely<Database>,
  input: { accountId: number; list: string; address?: string; kind?: 'join' | 'leave'; now?: Date },
): Promise<number> {
  requests += 1;
  const list = await db
    .selectFrom('lists')
    .select('id')
    .where('account_id', '=', input.accountId)
    .where('name', '=', input.list)
    .executeTakeFirstOrThrow();
  const now = input.now ?? new Date();
  const address = input.address ?? `requester${requests}-${input.list}@example.org`;
  const row = await db
    .insertInto('member_requests')
    .values({
      account_id: input.accountId,
      list_id: list.id,
      kind: input.kind ?? 'join',
      address,
      address_key: address.toLowerCase(),
      state: 'moderate',
      source: 'web',
      created: now.toISOString(),
      confirmed: now.toISOString(),
      expires_at: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
