import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { linkHolds } from '../tokens/signed-link.ts';
import { readVerpToken, verpAddress } from './verp.ts';

const key = randomBytes(32);
const list = { id: 12, address: 'community@lists.example' };
const now = new Date('2026-11-29T10:00:00Z');

/** Issue 26 item 1, SECURITY.md 47: the return path names the delivery, and only ours hold. */
describe('VERP return paths', () => {
  it('name the list and the address row, in lower-case base32 within the local part’s 64 octets', () => {
    const address = verpAddress(key, list, { emailId: 345, address: 'Ann@Example.org' }, now);
    const [local, domain] = address.split('@');
    expect(domain).toBe('lists.example');
    expect(local).toMatch(/^community-bounces\+[a-z2-7]+$/);
    expect(local?.length).toBeLessThanOrEqual(64);
    const token = local?.slice('community-bounces+'.length) ?? '';
    const read = readVerpToken(token.toUpperCase());
    expect(read?.claim).toMatchObject({ purpose: 'bounce', listId: 12, emailId: 345 });
    expect(linkHolds(key, read?.bytes ?? Buffer.alloc(0), 'ann@example.org', now)).toBe(true);
  });

  it('hold only for the address they were made for, with our key, before they expire', () => {
    const local = verpAddress(key, list, { emailId: 345, address: 'ann@example.org' }, now).split('@')[0] ?? '';
    const read = readVerpToken(local.slice('community-bounces+'.length));
    const bytes = read?.bytes ?? Buffer.alloc(0);
    expect(linkHolds(key, bytes, 'bob@example.org', now)).toBe(false);
    expect(linkHolds(randomBytes(32), bytes, 'ann@example.org', now)).toBe(false);
    expect(linkHolds(key, bytes, 'ann@example.org', new Date(now.getTime() + 31 * 86_400_000))).toBe(false);
    const forged = Buffer.from(bytes);
    forged[5] = (forged[5] ?? 0) ^ 1;
    expect(linkHolds(key, forged, 'ann@example.org', now)).toBe(false);
    expect(readVerpToken('not-base32!')).toBeNull();
  });
});
