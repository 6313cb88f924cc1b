import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, RateLimitedError } from '../../api/errors.ts';
import { accountQueries } from '../features/accounts/api/account-queries.ts';
import { administratorQueries } from '../features/administrators/api/administrator-queries.ts';
import { contactQueries } from '../lib/contact-queries.ts';
import { listQueries } from '../lib/list-queries.ts';
import { messageQueries } from '../features/messages/api/message-queries.ts';
import { clearRateLimits, getRateLimitNotice } from '../lib/rate-limit.ts';
import { endSession, getSession, startSession } from '../lib/session.ts';
import { createTokenKeeper } from '../lib/token-keeper.ts';
import { createQueryClient } from './query-client.ts';

afterEach(() => {
  clearRateLimits();
  endSession('signed-out');
});

describe('createQueryClient', () => {
  it('is frugal with the rate-limited API (spec §8)', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchOnReconnect).toBe(false);
    expect(queries?.staleTime).toBe(5 * 60 * 1000);
  });

  it('does not retry client errors (a retry spends the allowance again)', () => {
    const retry = createQueryClient().getDefaultOptions().queries?.retry as (
      n: number,
      e: Error,
    ) => boolean;
    expect(retry(0, new ApiError(404, 'gone'))).toBe(false);
    expect(retry(0, new RateLimitedError('over', new Date(), 6))).toBe(false);
    expect(retry(0, new ApiError(0, 'offline'))).toBe(true);
    expect(retry(2, new ApiError(502, 'bad gateway'))).toBe(false);
  });
});

describe('query keys start with the account', () => {
  it('for every resource, list and detail', () => {
    const keys = [
      contactQueries.list('7', { page: 1 }).queryKey,
      contactQueries.detail('7', 1).queryKey,
      listQueries.list('7').queryKey,
      listQueries.detail('7', 'news').queryKey,
      messageQueries.list('7', {}).queryKey,
      messageQueries.detail('7', 3).queryKey,
      administratorQueries.list('7').queryKey,
      administratorQueries.detail('7', 4).queryKey,
    ];
    for (const key of keys) expect(key[0]).toBe('7');
    expect(contactQueries.list('7', { page: 2 }).queryKey).toEqual([
      '7',
      'contacts',
      'list',
      { page: 2 },
    ]);
    expect(contactQueries.list(null, {}).queryKey[0]).toBeNull();
    // Group-wide: sent without account_id.
    expect(accountQueries.list().queryKey[0]).toBeNull();
  });

  it("so invalidating one account's resource leaves other accounts and resources alone", async () => {
    const client = createQueryClient();
    const seed = (key: readonly unknown[]) => client.setQueryData(key, { data: [] });
    seed(contactQueries.list('1', {}).queryKey);
    seed(contactQueries.detail('1', 5).queryKey);
    seed(contactQueries.list('2', {}).queryKey);
    seed(listQueries.list('1').queryKey);
    await client.invalidateQueries({ queryKey: contactQueries.all('1'), refetchType: 'none' });
    const invalidated = client
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.isInvalidated)
      .map((query) => query.queryKey);
    expect(invalidated).toEqual([
      contactQueries.list('1', {}).queryKey,
      contactQueries.detail('1', 5).queryKey,
    ]);
  });
});

describe('API errors app-wide', () => {
  it('a 429 raises the banner of the account the query was for', async () => {
    const client = createQueryClient();
    const resetAt = new Date(Date.now() + 60_000);
    await client
      .fetchQuery({
        queryKey: ['7', 'contacts', 'list', {}],
        queryFn: () => Promise.reject(new RateLimitedError('over', resetAt, 6)),
      })
      .catch(() => undefined);
    expect(getRateLimitNotice('7')).toEqual({ resetAt, limit: 6 });
    expect(getRateLimitNotice('8')).toBeNull();
  });

  it('a 429 of a mutation too, by its key', async () => {
    const client = createQueryClient();
    const mutation = client.getMutationCache().build(client, {
      mutationKey: ['9', 'lists', 'create'],
      mutationFn: () =>
        Promise.reject(new RateLimitedError('over', new Date(Date.now() + 1000), null)),
    });
    await mutation.execute(undefined).catch(() => undefined);
    expect(getRateLimitNotice('9')).not.toBeNull();
  });

  it('a 401 while signed in ends the session: a key was refused, a token expired', async () => {
    const client = createQueryClient();
    const unauthorized = () => Promise.reject(new ApiError(401, 'Authentication failed'));

    startSession(
      { method: 'key', key: 'k' },
      { method: 'key', global: false, identity: 'API key' },
    );
    await client
      .fetchQuery({ queryKey: [null, 'lists', 'list'], queryFn: unauthorized })
      .catch(() => undefined);
    expect(getSession()).toEqual({ status: 'signed-out', ended: 'key-refused' });

    const keeper = createTokenKeeper({
      tokens: { accessToken: 'a', refreshToken: null, issuedAt: 0, expiresAt: null },
      refresh: () => Promise.reject(new Error('unused')),
      onLost: () => undefined,
    });
    startSession(
      { method: 'oauth', keeper },
      { method: 'oauth', global: true, identity: 'someone' },
    );
    await client
      .fetchQuery({ queryKey: ['1', 'lists', 'list'], queryFn: unauthorized })
      .catch(() => undefined);
    expect(getSession()).toEqual({ status: 'signed-out', ended: 'session-expired' });
  });
});
