import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** One request, accepting the given encodings (undefined: no Accept-Encoding header). */
export type GetAccepting = (acceptEncoding?: string) => Promise<LightMyRequestResponse>;

/**
 * Asks as a browser does (Brotli among others), as a client that takes gzip only, and as one that
 * takes nothing: each answer is `body`, in the one encoding it may read. Answers the Brotli
 * response, for the caller's own checks on it.
 */
export async function expectEachEncoding(
  get: GetAccepting,
  body: string,
): Promise<LightMyRequestResponse> {
  const brotli = await get('gzip, deflate, br, zstd');
  expect(brotli.statusCode).toBe(200);
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(body);

  const gzip = await get('gzip');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.rawPayload).toString()).toBe(body);

  const plain = await get();
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body).toBe(body);
  return brotli;
}
