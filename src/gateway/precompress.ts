// A build step (a Vite plugin, vite.config.ts), kept beside the gateway that serves what it writes:
// every text file of the built dashboard gets a Brotli (`.br`) and a gzip (`.gz`) sibling,
// compressed once at their best levels. The gateway and the reference server send the sibling the
// browser accepts (@fastify/static `preCompressed`, static-files.ts), so nothing is compressed per
// request and no byte of the 330 kB entry crosses the wire uncompressed (it did, to every browser:
// issue 17 item 9, Lighthouse).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What a browser fetches as text; source maps are for developer tools only. */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;

/** Below this a compressed copy saves less than a packet: the file is sent as it is. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'listkeeper-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After a successful write only (closeBundle also runs after a failed build); the public
    // folder's files were copied before it.
    async writeBundle() {
      await precompressDirectory(outDir);
    },
  };
}

export async function precompressDirectory(directory: string): Promise<void> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      if (content.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}
