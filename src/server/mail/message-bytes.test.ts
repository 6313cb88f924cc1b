import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readMessageBytes } from './message-bytes.ts';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const MB = 1 << 20;

/** A DATA stream the test feeds by hand, flowing as smtp-server's does. */
function dataStream() {
  return new Readable({ read: () => undefined });
}

/** Until the reader has taken everything pushed so far. */
async function drained(stream: Readable) {
  while (stream.readableLength > 0) await new Promise((resolve) => setImmediate(resolve));
}

describe('readMessageBytes (SMTP_IN_MAX_BYTES)', () => {
  it('gives the bytes of a message up to the limit, null over it', async () => {
    for (const [sizes, expected] of [
      [[3, 4, 3], 10],
      [[3, 4, 4], null],
    ] as const) {
      const stream = dataStream();
      const read = readMessageBytes(stream, 10);
      for (const size of sizes) stream.push(Buffer.alloc(size, 'a'));
      stream.push(null);
      expect((await read)?.length ?? null).toBe(expected);
    }
  });

  it('keeps nothing past the limit while an oversized message streams in', async () => {
    const stream = dataStream();
    const read = readMessageBytes(stream, MB);
    // Which chunks are still held, whatever else the process allocates (a memory figure moved
    // with the tests running beside this one).
    const sent: WeakRef<Buffer>[] = [];
    for (let i = 0; i < 64; i += 1) {
      const chunk = Buffer.alloc(MB, i);
      sent.push(new WeakRef(chunk));
      stream.push(chunk);
      await drained(stream);
    }
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    // Without the limit all 64 would still be held here, until the end of the message.
    expect(sent.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(2);
    stream.push(null);
    expect(await read).toBeNull();
  });
});
