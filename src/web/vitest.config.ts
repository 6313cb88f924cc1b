import { defineProject } from 'vitest/config';

export default defineProject({
  // Same JSX transform as vite.config.ts: Vite 8's Oxc with React's automatic runtime.
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'react' },
  },
  test: {
    name: 'web',
    // Node until component tests need a DOM (add happy-dom or jsdom and switch per file).
    environment: 'node',
    include: ['**/*.test.{ts,tsx}'],
  },
});
