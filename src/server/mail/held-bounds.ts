import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expireHeld, heldUsage, lockHeldBounds } from '../repositories/held.repository.ts';

/**
 * How much the held queue may hold (issue 28 item 2, "anyone can grow the database without
 * limit"), in messages and in bytes as received: per list, and per sender (the From address,
 * across the account's lists), so that one sender cannot fill a list's queue, nor many senders
 * fill it without end. Past a bound the listener refuses the message (452, try later): the
 * sender's own server keeps it and tries again, and it gets in once a moderator has worked the
 * queue or held mail has expired (`maxDays`, Mailman's max_days_to_hold). Nothing is dropped
 * silently: mail for several lists of which one is full goes to the others, and the full one's
 * refusal is logged (SMTP has one answer per message).
 */
export interface HeldBounds {
  listMessages: number;
  listBytes: number;
  senderMessages: number;
  senderBytes: number;
  /** Days a held message waits for a moderator before it is dropped; 0: forever. */
  maxDays: number;
  /** How often the mail service drops the held messages older than `maxDays`. */
  expirySweepSeconds: number;
}

export const HELD_DEFAULTS: HeldBounds = {
  listMessages: 1000,
  listBytes: 100 * 1024 * 1024,
  senderMessages: 20,
  senderBytes: 25 * 1024 * 1024,
  maxDays: 30,
  expirySweepSeconds: 3600,
};

/**
 * Why the queue cannot take one more message of `size` bytes from `sender` for the list, or null
 * when it can. Runs in the transaction that would hold it, after taking the account's bounds lock
 * (PostgreSQL; SQLite's write lock serializes it already), so two messages at once cannot both
 * slip under a bound.
 */
export async function heldQueueFull(
  trx: Kysely<Database>,
  held: { accountId: number; listId: number; listName: string; sender: string; size: number },
  bounds: HeldBounds,
): Promise<string | null> {
  await lockHeldBounds(trx, held.accountId);
  const usage = await heldUsage(trx, held);
  if (usage.listMessages + 1 > bounds.listMessages)
    return `the held queue of ${held.listName} is full (${bounds.listMessages} messages)`;
  if (usage.listBytes + held.size > bounds.listBytes)
    return `the held queue of ${held.listName} is full (${bounds.listBytes} bytes)`;
  if (usage.senderMessages + 1 > bounds.senderMessages)
    return `${held.sender} has ${usage.senderMessages} messages held already (at most ${bounds.senderMessages})`;
  if (usage.senderBytes + held.size > bounds.senderBytes)
    return `${held.sender} has ${usage.senderBytes} bytes held already (at most ${bounds.senderBytes})`;
  return null;
}

/** Held messages dropped a statement at a time, with other requests' turns between. */
const EXPIRY_CHUNK = 500;

/**
 * Drops the held messages that have waited more than `maxDays` (Mailman's max_days_to_hold; 0:
 * never), by the server's clock; answers how many. Nobody is told: a notice to the sender of an
 * expired message would be one more chance for backscatter, and the moderator let it lie.
 */
export async function expireHeldMessages(
  db: Kysely<Database>,
  now: Date,
  maxDays: number,
): Promise<number> {
  if (maxDays <= 0) return 0;
  const before = Math.floor(now.getTime() / 1000) - Math.round(maxDays * 86_400);
  let total = 0;
  for (;;) {
    const dropped = await expireHeld(db, before, EXPIRY_CHUNK);
    total += dropped;
    if (dropped < EXPIRY_CHUNK) return total;
    await nextTurn();
  }
}
