import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { installationSecret } from '../repositories/server-secrets.repository.ts';

/**
 * The links every delivery carries for its one recipient (issue 25): RFC 8058 one-click leave, the
 * member's own page, and (issue 26) the VERP return path. A fan-out to 100,000 members must not
 * write 100,000 token rows, so these are not stored: each names the list, the address (by its row
 * id) and the purpose, with an expiry day, and is signed with the installation's key (HMAC-SHA-256
 * cut to 128 bits, SECURITY.md 42). The address itself is in the MAC, not the token: a link stops
 * working when its address row is changed to another address. A link only ever acts on what it
 * names, and acting twice does nothing more (a member who left has no membership left to end).
 */
export type LinkPurpose = 'unsubscribe' | 'member' | 'bounce';

const PURPOSE_CODES: Record<LinkPurpose, number> = { unsubscribe: 1, member: 2, bounce: 3 };
const VERSION = 1;
const PAYLOAD_BYTES = 12;
const MAC_BYTES = 16;
const DAY_MS = 86_400_000;

export interface LinkClaim {
  purpose: LinkPurpose;
  listId: number;
  emailId: number;
  /** The first day (UTC, days since 1970) on which the link no longer works. */
  expiresDay: number;
}

function payloadOf(claim: LinkClaim): Buffer {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(VERSION, 0);
  payload.writeUInt8(PURPOSE_CODES[claim.purpose], 1);
  payload.writeUInt32BE(claim.listId, 2);
  payload.writeUInt32BE(claim.emailId, 6);
  payload.writeUInt16BE(claim.expiresDay, 10);
  return payload;
}

function macOf(key: Buffer, payload: Buffer, addressKey: string): Buffer {
  return createHmac('sha256', key)
    .update(payload)
    .update(addressKey, 'utf8')
    .digest()
    .subarray(0, MAC_BYTES);
}

/** The signed bytes of a link to `claim` for the address `addressKey` (lower-cased). */
export function signLink(key: Buffer, claim: LinkClaim, addressKey: string): Buffer {
  const payload = payloadOf(claim);
  return Buffer.concat([payload, macOf(key, payload, addressKey)]);
}

/** What the bytes claim, before the MAC is checked (which needs the address the claim names). */
export function readLinkClaim(bytes: Buffer | null, purpose: LinkPurpose): LinkClaim | null {
  if (bytes?.length !== PAYLOAD_BYTES + MAC_BYTES) return null;
  if (bytes.readUInt8(0) !== VERSION || bytes.readUInt8(1) !== PURPOSE_CODES[purpose]) return null;
  return {
    purpose,
    listId: bytes.readUInt32BE(2),
    emailId: bytes.readUInt32BE(6),
    expiresDay: bytes.readUInt16BE(10),
  };
}

/** The link is ours, for this address, and not yet expired on `now`. */
export function linkHolds(key: Buffer, bytes: Buffer, addressKey: string, now: Date): boolean {
  const claim = readLinkClaim(bytes, purposeOf(bytes));
  if (!claim || dayOf(now) >= claim.expiresDay) return false;
  const expected = macOf(key, bytes.subarray(0, PAYLOAD_BYTES), addressKey);
  return timingSafeEqual(expected, bytes.subarray(PAYLOAD_BYTES));
}

function purposeOf(bytes: Buffer): LinkPurpose {
  const code = bytes.readUInt8(1);
  return (Object.keys(PURPOSE_CODES) as LinkPurpose[]).find((p) => PURPOSE_CODES[p] === code) ?? 'member';
}

export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS);
}

/** The expiry day of a link made on `now` that lasts `days`. */
export function expiryDay(now: Date, days: number): number {
  return dayOf(now) + days;
}

const keys = new WeakMap<Kysely<Database>, Promise<Buffer>>();

/** The installation's link key, made on first use and then kept for the database handle. */
export function linkKey(db: Kysely<Database>): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = installationSecret(db, 'mail-links', () => randomBytes(32).toString('base64url')).then(
      (value) => Buffer.from(value, 'base64url'),
    );
    // A failed read is not kept: the next caller tries again.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}
