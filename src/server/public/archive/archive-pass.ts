import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The pass that keeps a protected archive open in one browser (spec §2.4 `archive_protected`),
 * once its reader came in by a member's mailed link or by the archive's password.
 *
 * Where it lives: a cookie of its own name, HttpOnly, SameSite=Lax, Secure under https, whose
 * path is the archive's own, `/l/<list address>/archive/`: the browser sends it to that list's
 * archive pages only, no script reads it, and nothing else reads its name; the dashboard and the
 * API take only their own session cookie and the Authorization header (SECURITY.md 41). Not in
 * the URL: a member shares a message by copying its address, which must not carry the pass to
 * whoever receives it, nor into a log, a history or a Referer (the pages send none anyway).
 *
 * What it is: signed, not stored, so reading a page costs one HMAC: the list, who (a member's
 * address row, or the password), an expiry, and a MAC (HMAC-SHA-256 cut to 128 bits, under a key
 * derived from the installation's link key for this use alone) over them and what the pass leans
 * on: the member's address, or the password's stored hash. So a pass ends when its member's
 * address changes or the password changes or is cleared; and each page checks, beside the MAC,
 * that the list still lets that kind of reader in and that a member is still one.
 */
export type PassKind = 'member' | 'password';

export interface ArchivePass {
  kind: PassKind;
  listId: number;
  /** The member's address row; 0 for a password pass. */
  emailId: number;
  /** Unix seconds after which the pass no longer opens the archive. */
  expires: number;
}

export const PASS_DAYS = 30;
const VERSION = 1;
const KINDS: Record<PassKind, number> = { member: 1, password: 2 };
const PAYLOAD_BYTES = 14;
const MAC_BYTES = 16;
const PASS_SHAPE = /^[A-Za-z0-9_-]{40}$/;

const passKeys = new WeakMap<Buffer, Buffer>();

/** A key for passes alone: a pass is never a valid link of another kind, nor the reverse. */
function passKey(linkKey: Buffer): Buffer {
  let key = passKeys.get(linkKey);
  if (!key) {
    key = createHmac('sha256', linkKey).update('listkeeper archive pass').digest();
    passKeys.set(linkKey, key);
  }
  return key;
}

function macOf(linkKey: Buffer, payload: Buffer, binder: string): Buffer {
  return createHmac('sha256', passKey(linkKey))
    .update(payload)
    .update(binder, 'utf8')
    .digest()
    .subarray(0, MAC_BYTES);
}

/** `binder`: the member's address key, or the password's stored hash. */
export function signPass(linkKey: Buffer, pass: ArchivePass, binder: string): string {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(VERSION, 0);
  payload.writeUInt8(KINDS[pass.kind], 1);
  payload.writeUInt32BE(pass.listId, 2);
  payload.writeUInt32BE(pass.emailId, 6);
  payload.writeUInt32BE(pass.expires, 10);
  return Buffer.concat([payload, macOf(linkKey, payload, binder)]).toString('base64url');
}

/** What a pass claims, before its MAC is checked (that needs the binder the claim names). */
export function readPass(
  text: string | undefined,
  now: Date,
): (ArchivePass & { bytes: Buffer }) | null {
  if (text === undefined || !PASS_SHAPE.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== PAYLOAD_BYTES + MAC_BYTES || bytes.readUInt8(0) !== VERSION) return null;
  const kind = (Object.keys(KINDS) as PassKind[]).find((k) => KINDS[k] === bytes.readUInt8(1));
  const expires = bytes.readUInt32BE(10);
  if (!kind || expires <= Math.floor(now.getTime() / 1000)) return null;
  return { kind, listId: bytes.readUInt32BE(2), emailId: bytes.readUInt32BE(6), expires, bytes };
}

export function passHolds(linkKey: Buffer, bytes: Buffer, binder: string): boolean {
  const expected = macOf(linkKey, bytes.subarray(0, PAYLOAD_BYTES), binder);
  return timingSafeEqual(expected, bytes.subarray(PAYLOAD_BYTES));
}

export const PASS_COOKIE = 'listkeeper_archive';

/** `__Secure-` where the browser checks it: the cookie then never comes from plain http. */
export function passCookieName(secure: boolean): string {
  return secure ? `__Secure-${PASS_COOKIE}` : PASS_COOKIE;
}

/** The Set-Cookie of a pass for the archive at `path`; an empty value ends it. */
export function passCookie(
  value: string,
  options: { path: string; secure: boolean; maxAgeSeconds: number },
): string {
  return [
    `${passCookieName(options.secure)}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
