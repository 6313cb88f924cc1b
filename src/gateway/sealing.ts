import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * What the gateway keeps of a credential, at rest: AES-256-GCM with a key derived from
 * SESSION_SECRET, bound to the row it belongs to (the additional data), so a copied database
 * file alone gives away no token or key, and a sealed value moved to another row does not open.
 * Identifiers are stored as keyed hashes: the cookie's value itself is never stored.
 */
export interface Sealer {
  seal(value: unknown, boundTo: string): Buffer;
  /** null when the value was sealed with another secret, for another row, or altered. */
  open<T>(sealed: Buffer, boundTo: string): T | null;
  /** A stable, non-reversible name for a random identifier (cookie value, `state`). */
  hashId(id: string): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 1;

export function createSealer(secret: string): Sealer {
  const derive = (info: string) =>
    Buffer.from(hkdfSync('sha256', secret, 'listkeeper-gateway', info, 32));
  const encryptionKey = derive('session data v1');
  const idKey = derive('identifiers v1');

  return {
    seal(value, boundTo) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open<T>(sealed: Buffer, boundTo: string): T | null {
      if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) return null;
      try {
        const iv = sealed.subarray(1, 1 + IV_BYTES);
        const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, iv);
        decipher.setAAD(Buffer.from(boundTo, 'utf8'));
        decipher.setAuthTag(tag);
        const text = Buffer.concat([
          decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
        return JSON.parse(text) as T;
      } catch {
        return null;
      }
    },
    hashId: (id) => createHmac('sha256', idKey).update(id).digest('base64url'),
  };
}

/** 256 random bits, URL-safe: session ids, login-binding ids. */
export function randomId(): string {
  return randomBytes(32).toString('base64url');
}
