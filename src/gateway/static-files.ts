import type { FastifyStaticOptions } from '@fastify/static';

/**
 * How the built dashboard is served, by the gateway and by the reference server alike:
 * - the Brotli or gzip copy `npm run build` wrote beside each file (precompress.ts), as the browser
 *   accepts, with `Vary: accept-encoding`;
 * - Vite's hashed `/assets/` kept for a year: a new build has new names, so a cached file is never
 *   stale, and a returning visit loads no script again (index.html itself is never cached).
 */
export function dashboardStaticOptions(root: string): FastifyStaticOptions {
  return {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      if (HASHED_ASSET.test(filePath))
        reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  };
}

/** Vite's output names: `assets/<name>-<8-character hash>.<ext>`. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(?:\.(?:br|gz))?$/;
