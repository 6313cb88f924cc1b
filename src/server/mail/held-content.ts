import { promisify } from 'node:util';
import { deflateRawSync, inflateRaw } from 'node:zlib';

const inflate = promisify(inflateRaw);

/** A held message's source, its text and the sender's HTML (UTF-8; empty: none). */
export interface HeldParts {
  raw: Uint8Array;
  plain: Uint8Array;
  html: Uint8Array;
}

/** As the queue stores them (migration 2026-11-29T0210): each part once, deflated. */
export interface StoredHeldContent {
  raw_deflated: Buffer;
  plain_deflated: Buffer;
  html_deflated: Buffer | null;
}

/**
 * Deflated where it is called: on the inbound pool's threads for mail that comes in (it takes as
 * long as the message, SECURITY.md 29), and what SQLite then writes on the server's thread is a
 * fraction of the message (text deflates to a third or less).
 */
export function packHeldContent(parts: HeldParts): StoredHeldContent {
  return {
    raw_deflated: deflateRawSync(parts.raw),
    plain_deflated: deflateRawSync(parts.plain),
    html_deflated: parts.html.byteLength === 0 ? null : deflateRawSync(parts.html),
  };
}

/** The parts as text, inflated on libuv's threads (node:zlib's asynchronous calls). */
export async function loadHeldContent(
  stored: StoredHeldContent,
): Promise<{ raw: Buffer; plain: string; html: string }> {
  const [raw, plain, html] = await Promise.all([
    inflate(stored.raw_deflated),
    inflate(stored.plain_deflated),
    stored.html_deflated ? inflate(stored.html_deflated) : null,
  ]);
  return { raw, plain: plain.toString(), html: html?.toString() ?? '' };
}
