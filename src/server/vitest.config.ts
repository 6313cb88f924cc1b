import { defineProject } from 'vitest/config';

// Server tests: black-box over HTTP against fresh databases; one PostgreSQL cluster per run.
export default defineProject({
  test: {
    name: 'server',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
