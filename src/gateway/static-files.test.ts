import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from './precompress.ts';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { openSessionStore } from './open-session-store.ts';
import { expectEachEncoding } from './test/encodings.ts';

/**
 * The built dashboard leaves the gateway compressed, as the build wrote it (precompress.ts),
 * and its hashed files are cached for good: the entry was 327 kB on the wire, uncompressed, on
 * every first visit (issue 17 item 9).
 */
describe('the dashboard files', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof buildGateway>>;
  let close: () => Promise<void>;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gateway-static-'));
    const dist = path.join(dir, 'dist');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><title>Listkeeper</title>${' '.repeat(2000)}`,
    );
    writeFileSync(path.join(dist, 'assets', 'index-BaEV5fLb.js'), script);
    writeFileSync(path.join(dist, 'assets', 'tiny-Ab12Cd34.js'), 'export {};');
    await precompressDirectory(dist);
    const config = loadGatewayConfig({
      UPSTREAM_URL: 'http://127.0.0.1:9',
      DATA_DIR: dir,
      STATIC_DIR: dist,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'https://dash.example',
    });
    const store = await openSessionStore(config);
    app = await buildGateway({ config, store });
    close = async () => {
      await app.close();
      await store.close();
    };
  });
  afterAll(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('writes a Brotli and a gzip copy beside each file worth compressing, and none beside a tiny one', () => {
    const assets = path.join(dir, 'dist', 'assets');
    const original = readFileSync(path.join(assets, 'index-BaEV5fLb.js'));
    const br = readFileSync(path.join(assets, 'index-BaEV5fLb.js.br'));
    const gz = readFileSync(path.join(assets, 'index-BaEV5fLb.js.gz'));
    expect(brotliDecompressSync(br)).toEqual(original);
    expect(gunzipSync(gz)).toEqual(original);
    expect(br.length).toBeLessThan(original.length / 3);
    expect(() => readFileSync(path.join(assets, 'tiny-Ab12Cd34.js.br'))).toThrow(/ENOENT/);
  });

  it('sends the copy the browser accepts, Brotli first, and says the answer varies with it', async () => {
    const brotli = await expectEachEncoding(
      (accept) => get('/assets/index-BaEV5fLb.js', accept),
      script,
    );
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);

    // A file too small to compress is sent as it is, whatever the browser accepts.
    const tiny = await get('/assets/tiny-Ab12Cd34.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};');
  });

  it('keeps hashed files for a year and the page itself never', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const asset = await get('/assets/index-BaEV5fLb.js', encoding);
      expect(asset.headers['cache-control'], String(encoding)).toBe(
        'public, max-age=31536000, immutable',
      );
    }
    const page = await get('/contacts', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).not.toMatch(/immutable|max-age=[1-9]/);
    expect(brotliDecompressSync(page.rawPayload).toString()).toMatch(/^<!doctype html>/);
  });

  it('has every page ask for who is signed in beside its scripts, a round trip sooner (issue 27 item 8)', async () => {
    for (const url of ['/', '/sign-in', '/a/1/messages/56']) {
      const page = await get(url);
      expect(page.headers.link, url).toBe(
        '</auth/session>; rel=preload; as=fetch; crossorigin=anonymous',
      );
    }
    expect((await get('/assets/index-BaEV5fLb.js')).headers.link).toBeUndefined();
  });
});
