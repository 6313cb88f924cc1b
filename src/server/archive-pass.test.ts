import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  passCookie,
  passHolds,
  readPass,
  signPass,
  type ArchivePass,
} from './public/archive/archive-pass.ts';
import { signLink } from './tokens/signed-link.ts';

const key = randomBytes(32);
const now = new Date('2026-05-01T12:00:00Z');
const pass: ArchivePass = {
  kind: 'member',
  listId: 7,
  emailId: 42,
  expires: Math.floor(now.getTime() / 1000) + 3600,
};

describe('the archive pass (archive-pass.ts, SECURITY.md 41, 42)', () => {
  it('holds for the list, the member and the binder it was made with, until it expires', () => {
    const text = signPass(key, pass, 'ann@example.org');
    const read = readPass(text, now);
    expect(read).toMatchObject(pass);
    expect(passHolds(key, read!.bytes, 'ann@example.org')).toBe(true);
    expect(passHolds(key, read!.bytes, 'bob@example.org')).toBe(false);
    expect(passHolds(randomBytes(32), read!.bytes, 'ann@example.org')).toBe(false);
    expect(readPass(text, new Date((pass.expires + 1) * 1000))).toBeNull();
  });

  it('refuses a changed pass, another shape, and a delivery link signed with the same key', () => {
    const bytes = Buffer.from(signPass(key, pass, 'ann@example.org'), 'base64url');
    bytes.writeUInt32BE(8, 2); // another list
    const changed = readPass(bytes.toString('base64url'), now);
    expect(changed && passHolds(key, changed.bytes, 'ann@example.org')).toBe(false);
    for (const text of [undefined, '', 'x'.repeat(40), `${signPass(key, pass, 'a')}x`])
      expect(readPass(text, now)).toBeNull();
    const link = signLink(
      key,
      { purpose: 'member', listId: 7, emailId: 42, expiresDay: 30_000 },
      'ann@example.org',
    );
    expect(readPass(link.toString('base64url'), now)).toBeNull();
  });

  it('is a cookie of the archive’s path only, HttpOnly and SameSite, __Secure- and Secure under https', () => {
    expect(
      passCookie('v', { path: '/l/a@b.example/archive/', secure: false, maxAgeSeconds: 60 }),
    ).toBe(
      'listkeeper_archive=v; Path=/l/a@b.example/archive/; Max-Age=60; HttpOnly; SameSite=Lax',
    );
    expect(
      passCookie('v', { path: '/l/a@b.example/archive/', secure: true, maxAgeSeconds: 60 }),
    ).toBe(
      '__Secure-listkeeper_archive=v; Path=/l/a@b.example/archive/; Max-Age=60; HttpOnly; SameSite=Lax; Secure',
    );
  });
});
