import { defineProject } from 'vitest/config';

// Gateway tests: its rules as units, and the whole gateway over HTTP against a stand-in upstream.
// The session store runs on SQLite and on the server tests' throwaway PostgreSQL cluster.
export default defineProject({
  test: {
    name: 'gateway',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    globalSetup: ['../server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
