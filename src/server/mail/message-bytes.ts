import type { Readable } from 'node:stream';

/**
 * The bytes of one message from its DATA stream, or null when they are more than `maxBytes` (the
 * listener answers 552). Past the limit the rest is read and dropped, never kept: smtp-server
 * streams the whole message whatever its size, so a sender sending gigabytes cannot fill memory.
 */
export function readMessageBytes(stream: Readable, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    stream.on('end', () => resolve(size > maxBytes ? null : Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
