import { defineConfig } from 'vitest/config';

// Each room of the repo is its own Vitest project with its own environment; the server's
// config (src/server/vitest.config.ts) joins through the same glob once it exists.
export default defineConfig({
  test: {
    projects: ['src/*/vitest.config.ts'],
    passWithNoTests: true,
  },
});
