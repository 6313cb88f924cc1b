import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { countWithin } from '../repositories/public-throttles.repository.ts';

/**
 * The public pages' limits (SECURITY.md 43): a client sends a few requests an hour, and an address
 * is mailed at most once an hour, whoever asks and from wherever, so nobody can make the server
 * mail a stranger more than that. Counted in the database (several processes count together),
 * per clock hour.
 */
export const PUBLIC_LIMITS = {
  /** Join, leave and member-page requests from one client (IP address) per hour. */
  requestsPerClient: 20,
  /** Mails of the members' side (confirmations, "already a member", page links) per address. */
  mailsPerAddress: 1,
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
  return countWithin(
    db,
    keyOf('mail', addressKey),
    windowStart(now),
    PUBLIC_LIMITS.mailsPerAddress,
  );
}
