import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client.ts';

describe('createQueryClient', () => {
  it('is frugal with the rate-limited API (spec §8)', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.staleTime).toBe(5 * 60 * 1000);
  });
});
