import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MailTokensTable } from '../db/schema.ts';

export type MailTokenRow = Selectable<MailTokensTable>;

export async function insertMailToken(
  db: Kysely<Database>,
  values: Insertable<MailTokensTable>,
): Promise<void> {
  await db.insertInto('mail_tokens').values(values).execute();
}

/** The live token with this hash and purpose: unused and not expired at `nowIso`. */
export function findLiveToken(
  db: Kysely<Database>,
  tokenHash: string,
  purpose: string,
  nowIso: string,
): Promise<MailTokenRow | undefined> {
  return db
    .selectFrom('mail_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
}

/**
 * Uses the live token once: the condition in the update makes two requests with the same token
 * (a double click, a mail scanner racing the person) use it once between them.
 */
export async function useToken(
  db: Kysely<Database>,
  tokenHash: string,
  purpose: string,
  nowIso: string,
): Promise<MailTokenRow | undefined> {
  return db
    .updateTable('mail_tokens')
    .set({ used_at: nowIso })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .returningAll()
    .executeTakeFirst();
}

/** Tokens past their expiry, or used a day ago or more, are of no use to anybody. */
export async function deleteDeadTokens(
  db: Kysely<Database>,
  nowIso: string,
  usedBeforeIso: string,
): Promise<number> {
  const result = await db
    .deleteFrom('mail_tokens')
    .where((eb) => eb.or([eb('expires_at', '<=', nowIso), eb('used_at', '<=', usedBeforeIso)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
