import { expect, it } from 'vitest';
import { makeZodJitless } from './zod-jitless.ts';

it('sets Zod to jitless before Zod loads (no eval under the CSP)', async () => {
  makeZodJitless();
  const z = await import('zod/mini');
  expect(z.config().jitless).toBe(true);
});
