import { defineProject } from 'vitest/config';

// The contract is isomorphic; testing it in plain Node keeps it free of DOM assumptions.
export default defineProject({
  test: {
    name: 'api',
    environment: 'node',
    include: ['**/*.test.ts'],
  },
});
