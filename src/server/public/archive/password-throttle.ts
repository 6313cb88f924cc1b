import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { countWithin } from '../../repositories/public-throttles.repository.ts';

/**
 * Guesses at an archive's password (spec §2.4 `archive_password`), counted in the database per
 * clock hour like the public pages' other limits (members/throttle.ts): a few per client, and a
 * ceiling per archive that many clients together cannot pass. The ceiling can shut the password
 * out for the rest of an hour under attack; members' mailed links still open the archive.
 */
export const PASSWORD_GUESSES = { perClient: 10, perArchive: 100, windowSeconds: 3600 } as const;

const digest = (value: string) =>
  createHash('sha256').update(value).digest('base64url').slice(0, 22);

/** Takes one guess for `clientAddress` at the archive of list `listId`; false when over either limit. */
export async function takePasswordGuess(
  db: Kysely<Database>,
  listId: number,
  clientAddress: string,
  now: Date,
): Promise<boolean> {
  const seconds = Math.floor(now.getTime() / 1000);
  const window = seconds - (seconds % PASSWORD_GUESSES.windowSeconds);
  return (
    (await countWithin(
      db,
      `archive-guess:${digest(clientAddress)}`,
      window,
      PASSWORD_GUESSES.perClient,
    )) && countWithin(db, `archive-guesses:${listId}`, window, PASSWORD_GUESSES.perArchive)
  );
}
