import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { openSessionStore } from './open-session-store.ts';

export interface InProcessGateway {
  /** The dashboard's origin, `http://<publicHost>:<port>`. */
  url: string;
  stop: () => Promise<void>;
}

/**
 * The gateway in this process on a free loopback port, in front of a running server, with its
 * sessions in a DATA_DIR of its own (removed by `stop`): the dashboard as `npm start` serves it,
 * for benches and tests that load pages afresh (a session outlives a reload; in the public-client
 * mode a key lives in page memory only, SECURITY.md 10). API keys only: no OAuth client.
 */
export async function startInProcessGateway(options: {
  upstreamUrl: string;
  staticDir: string;
  /** `localhost` keeps the page on another site than a `127.0.0.1` upstream (no shared cookies). */
  publicHost?: string;
  /** More settings (IMAGE_PROXY_ALLOW_PRIVATE…), as the environment would give them. */
  env?: Record<string, string>;
}): Promise<InProcessGateway> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'listkeeper-gateway-'));
  const port = await freePort();
  const config = loadGatewayConfig({
    ...options.env,
    UPSTREAM_URL: options.upstreamUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://${options.publicHost ?? '127.0.0.1'}:${port}`,
    DATA_DIR: dataDir,
    STATIC_DIR: options.staticDir,
    LOG_LEVEL: 'silent',
  });
  const store = await openSessionStore(config);
  const app = await buildGateway({ config, store });
  await app.listen({ port, host: config.host });
  return {
    url: config.publicUrl,
    stop: async () => {
      await app.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A TCP port free on the loopback interface a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
