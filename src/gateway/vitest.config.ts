import { defineProject } from 'vitest/config';

// Gateway tests: its rules as units, and the whole gateway over HTTP against a stand-in upstream.
export default defineProject({
  test: {
    name: 'gateway',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
