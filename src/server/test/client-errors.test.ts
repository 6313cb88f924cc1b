import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../api/primitives.ts';
import { buildGateway } from '../../gateway/app.ts';
import { loadGatewayConfig } from '../../gateway/config.ts';
import { openSessionStore } from '../../gateway/open-session-store.ts';
import type { SessionStore } from '../../gateway/session-store.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * SECURITY.md 21, spec §7: what Node's HTTP parser and the router refuse before any route runs
 * (headers over 16 kB, a request line it cannot read, a URL that is not validly percent-encoded)
 * is answered in the spec's error shape, by the server and by the gateway in front of it. Over a
 * real socket: `inject` skips the parser.
 */

/** Sends `request` as raw bytes and reads the whole answer. */
async function exchange(app: FastifyInstance, request: string) {
  const { port } = app.server.address() as AddressInfo;
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head: head.toLowerCase(), body };
}

const REFUSED = [
  [
    'oversized headers',
    `GET /api/2/lists/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    431,
  ],
  ['a request line it cannot read', 'FOO BAR\r\n\r\n', 400],
  [
    'a malformed percent-escape in the path',
    'GET /api/2/lists/a%ZZ/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    400,
  ],
] as const;

function expectSpecShape(
  answer: Awaited<ReturnType<typeof exchange>>,
  status: number,
  what: string,
) {
  expect(answer.status, what).toBe(status);
  expect(answer.head, what).toContain('content-type: application/json');
  expect(ErrorBody.parse(JSON.parse(answer.body)).message, what).not.toBe('');
}

describe('requests refused before any route runs', () => {
  let server: TestServer;
  let gateway: FastifyInstance;
  let store: SessionStore;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    dir = mkdtempSync(path.join(tmpdir(), 'client-errors-'));
    const config = loadGatewayConfig({
      UPSTREAM_URL: `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`,
      DATA_DIR: dir,
      STATIC_DIR: path.join(dir, 'no-dist'),
      LOG_LEVEL: 'silent',
    });
    store = await openSessionStore(config);
    gateway = await buildGateway({ config, store });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await gateway.close();
    await store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [what, request, status] of REFUSED) {
    it(`answers ${what} in the spec's shape, on the server and through the gateway`, async () => {
      expectSpecShape(await exchange(server.app, request), status, `server: ${what}`);
      expectSpecShape(await exchange(gateway, request), status, `gateway: ${what}`);
    });
  }
});
