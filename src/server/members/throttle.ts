import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { countWithin, takeOncePer } from '../repositories/public-throttles.repository.ts';

/**
 * The public pages' limits (SECURITY.md 43): a client sends a few requests an hour, and an address
 * is mailed at most once an hour, whoever asks and from wherever, so nobody can make the server
 * mail a stranger more than that. Counted in the database (several processes count together):
 * a client's requests per clock hour, an address's mail an hour after its last one (a clock hour
 * would let a mail at 10:59 and another at 11:00 both go).
 */
export const PUBLIC_LIMITS = {
  /** Join, leave and member-page requests from one client (IP address) per hour. */
  requestsPerClient: 20,
  /**
   * The hour of both limits: a client's requests count per clock hour of this length, and the
   * members' side mails an address (confirmations, "already a member", page links) once per this
   * long after its last mail.
   */
  windowSeconds: 3600,
} as const;

function windowStart(now: Date): number {
  const seconds = Math.floor(now.getTime() / 1000);
  return seconds - (seconds % PUBLIC_LIMITS.windowSeconds);
}

/** Only a digest of the client's address is kept. */
function keyOf(kind: string, value: string): string {
  return `${kind}:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;
}

export function takeClientRequest(
  db: Kysely<Database>,
  clientAddress: string,
  now: Date,
): Promise<boolean> {
  return countWithin(
    db,
    keyOf('client', clientAddress),
    windowStart(now),
    PUBLIC_LIMITS.requestsPerClient,
  );
}

export function takeAddressMail(
  db: Kysely<Database>,
  addressKey: string,
  now: Date,
): Promise<boolean> {
  return takeOncePer(
    db,
    keyOf('mail', addressKey),
    Math.floor(now.getTime() / 1000),
    PUBLIC_LIMITS.windowSeconds,
  );
}
