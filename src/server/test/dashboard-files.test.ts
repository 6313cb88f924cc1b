import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The reference server serves the built dashboard as the gateway does (gateway/static-files.ts):
 * the build's Brotli or gzip copy as the browser accepts, hashed files cached for a year.
 */
describe('the dashboard files the server sends', () => {
  let server: TestServer;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-dashboard-'));
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><title>Listkeeper</title>',
    );
    const asset = path.join(staticDir, 'assets', 'index-BaEV5fLb.js');
    fs.writeFileSync(asset, 'export const plain = 1;');
    // What gateway/precompress.ts writes; its content is told apart here by its text only.
    fs.writeFileSync(`${asset}.br`, 'the brotli copy');
    fs.writeFileSync(`${asset}.gz`, 'the gzip copy');
    server = await startTestServer('sqlite', { staticDir });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('sends the compressed copy the browser accepts, and the file itself to one that accepts none', async () => {
    const url = '/assets/index-BaEV5fLb.js';
    const cases: [string | undefined, string | undefined, string][] = [
      ['gzip, deflate, br, zstd', 'br', 'the brotli copy'],
      ['gzip', 'gzip', 'the gzip copy'],
      [undefined, undefined, 'export const plain = 1;'],
    ];
    for (const [accept, encoding, body] of cases) {
      const answer = await server.request('GET', url, {
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(answer.status, String(accept)).toBe(200);
      expect(answer.headers['content-encoding'], String(accept)).toBe(encoding);
      expect(String(answer.headers['content-type'])).toMatch(/javascript/);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.body).toBe(body);
    }
  });

  it('does not keep the page itself', async () => {
    const answer = await server.request('GET', '/contacts');
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).not.toMatch(/immutable|max-age=[1-9]/);
  });
});
