import { defineConfig } from 'vite';

// The reference server the dev proxy forwards to (`npm run dev` starts it on 8080).
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

export default defineConfig({
  root: import.meta.dirname,
  publicDir: 'public',
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
    emptyOutDir: true,
    // bench/run.ts reads the manifest to find the initial chunks for the bundle budget.
    manifest: true,
    sourcemap: true,
    rolldownOptions: {
      // React libraries mark modules "use client"; a client-only SPA has nothing to preserve.
      checks: { moduleLevelDirective: false },
    },
  },
});
