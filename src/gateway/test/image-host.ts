import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The smallest GIF: one transparent pixel, as mail trackers send. */
export const PIXEL_GIF = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64',
);

export interface ImageHost {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Requests received per path (query included), to prove what the proxy fetched. */
  hits: Map<string, number>;
}

let started: Promise<ImageHost> | null = null;

/**
 * A remote host for the image proxy (extension `messages.image`), local to the test process: test
 * servers run with IMAGE_PROXY_ALLOW_PRIVATE (harness.ts), so it may fetch from loopback.
 *
 * - `/pixel/<anything>`: a 1×1 GIF
 * - `/page`: text/html, `/missing`: 404, `/huge`: an image larger than the proxy takes
 * - `/redirect?to=<url>`: 302 to `to`
 * - `/stall`: headers never sent
 */
export function imageHost(): Promise<ImageHost> {
  started ??= start();
  return started;
}

async function start(): Promise<ImageHost> {
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://image.host');
    hits.set(request.url ?? '/', (hits.get(request.url ?? '/') ?? 0) + 1);
    if (url.pathname.startsWith('/pixel/')) {
      response.writeHead(200, { 'content-type': 'image/gif', 'content-length': PIXEL_GIF.length });
      response.end(PIXEL_GIF);
    } else if (url.pathname === '/page') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<p>not an image</p>');
    } else if (url.pathname === '/huge') {
      // No Content-Length: the proxy must stop reading at its cap by itself.
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(Buffer.alloc(3 * 1024 * 1024));
    } else if (url.pathname === '/redirect') {
      response.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      response.end();
    } else if (url.pathname === '/stall') {
      // Never answers; the proxy's deadline must end the wait.
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The host lives as long as the test process, and does not keep it alive.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, hits };
}
