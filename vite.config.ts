import path from 'node:path';
import { defineConfig, type Rolldown } from 'vite';
import { precompress } from './src/gateway/precompress.ts';

// The reference server the dev proxy forwards to (`npm run dev` starts it on 8080).
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

/**
 * The chunks a chunk imports statically, through all their imports: loaded before it runs, so a
 * lazy import in it need not preload them. Read from the bundle before Vite writes the preload
 * lists (its own generateBundle).
 */
const loadedChunks = (() => {
  let bundle: Rolldown.OutputBundle = {};
  const importsOf = (file: string) => {
    const chunk = bundle[file];
    return chunk?.type === 'chunk' ? chunk.imports : [];
  };
  return {
    plugin: {
      name: 'listkeeper-loaded-chunks',
      generateBundle: {
        order: 'pre' as const,
        handler(_options: unknown, output: Rolldown.OutputBundle) {
          bundle = output;
        },
      },
    },
    notIn(host: string, deps: string[]): string[] {
      const loaded = staticallyReachable([host], importsOf);
      return deps.filter((dep) => !loaded.has(dep));
    },
  };
})();

export default defineConfig({
  root: import.meta.dirname,
  publicDir: 'public',
  plugins: [precompress(), loadedChunks.plugin],
  // Vite 8 transforms TSX with Oxc itself; no React plugin needed.
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'react' },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget },
      '/config.json': { target: apiTarget },
      '/.well-known': { target: apiTarget },
    },
  },
  build: {
    outDir: 'dist',
    // A lazy import preloads only the chunks its importer did not already load: a page's list of
    // them cost it 0.25 kB gzip per import site (the bounce markers', issue 26 item 1). The
    // entry's <link rel="modulepreload"> tags (hostType 'html') stay as they are.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostId, hostType }) =>
        hostType === 'js' ? loadedChunks.notIn(hostId, deps) : deps,
    },
    emptyOutDir: true,
    // bench/run.ts reads the manifest to find the initial chunks for the bundle budget.
    manifest: true,
    sourcemap: true,
    rolldownOptions: {
      // React libraries mark modules "use client"; a client-only SPA has nothing to preserve.
      checks: { moduleLevelDirective: false },
      output: {
        // The signed-in shell in one chunk: it was eleven, each gzipped alone, 3.9 kB more on
        // every page (issue 17 item 9). Only what nothing loads before the shell joins it.
        codeSplitting: {
          groups: [
            // Only the shell's own modules: their dependencies (React, the router) stay in the entry.
            { name: shellChunk, debugName: 'app-shell', includeDependenciesRecursively: false },
            // The small pieces nearly every signed-in page shows (a labelled field, an error, a
            // skeleton) in one chunk: three chunks of 0.3–0.4 kB gzipped alone cost each page
            // their headers and imports (issue 27 item 7 made the field one of them). The error
            // reads the permissions from the app shell: the sign-in page uses none of them.
            {
              name: 'page-kit',
              test: /src\/web\/components\/(form\/form-field|error-message|skeleton)\.tsx$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});

const routes = path.join(import.meta.dirname, 'src/web/app/routes');
const shellRoute = path.join(routes, 'shell.tsx');
// What the browser loads before the shell: the entry, and the router's routes outside the
// signed-in shell (bench/bundle-size.ts measures them alike).
const beforeShell = [
  path.join(import.meta.dirname, 'src/web/main.tsx'),
  ...['sign-in.tsx', 'auth-callback.tsx', 'auth-problem.tsx'].map((file) =>
    path.join(routes, file),
  ),
];
const cache = new WeakMap<object, Set<string>>();

/**
 * `'app-shell'` for a module that only the signed-in shell and its pages need: statically imported
 * by routes/shell.tsx and not by the entry, sign-in or auth routes. shell.tsx stays its own chunk,
 * the route's lazy module; everything else is chunked as Rolldown sees fit.
 */
function shellChunk(id: string, ctx: Rolldown.ChunkingContext): string | null {
  let shellOnly = cache.get(ctx);
  if (!shellOnly) {
    const imports = (from: string) => ctx.getModuleInfo(from)?.importedIds ?? [];
    const early = staticallyReachable(beforeShell, imports);
    shellOnly = new Set(
      [...staticallyReachable([shellRoute], imports)].filter(
        (module) => module !== shellRoute && !early.has(module),
      ),
    );
    cache.set(ctx, shellOnly);
  }
  return shellOnly.has(id) ? 'app-shell' : null;
}

function staticallyReachable(start: string[], imports: (id: string) => string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...imports(id));
  }
  return seen;
}
