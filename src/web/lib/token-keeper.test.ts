import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import {
  createTokenKeeper,
  refreshDueAt,
  RefreshRefusedError,
  type TokenSet,
} from './token-keeper.ts';

const HOUR = 3_600_000;

function tokens(issuedAt: number, lifetimeMs: number | null, n = 1): TokenSet {
  return {
    accessToken: `access-${n}`,
    refreshToken: `refresh-${n}`,
    issuedAt,
    expiresAt: lifetimeMs === null ? null : issuedAt + lifetimeMs,
  };
}

describe('refreshDueAt', () => {
  it('refreshes a minute before an hour-long token expires', () => {
    expect(refreshDueAt(tokens(0, HOUR))).toBe(HOUR - 60_000);
  });

  it('refreshes a short token a fifth of its lifetime early', () => {
    expect(refreshDueAt(tokens(0, 60_000))).toBe(48_000);
    expect(refreshDueAt(tokens(1_000, 10_000))).toBe(9_000);
  });

  it('cannot refresh without an expiry or a refresh token', () => {
    expect(refreshDueAt(tokens(0, null))).toBeNull();
    expect(refreshDueAt({ ...tokens(0, HOUR), refreshToken: null })).toBeNull();
  });
});

describe('createTokenKeeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refreshes on a timer before expiry, and again with the next tokens', async () => {
    let n = 1;
    const refresh = vi.fn(async () => tokens(Date.now(), HOUR, ++n));
    const keeper = createTokenKeeper({ tokens: tokens(0, HOUR), refresh, onLost: vi.fn() });

    await vi.advanceTimersByTimeAsync(HOUR - 60_001);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(await keeper.accessToken()).toBe('access-2');

    await vi.advanceTimersByTimeAsync(HOUR - 60_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(keeper.current().accessToken).toBe('access-3');
    keeper.stop();
  });

  it('refreshes first when asked for a token that is due (a sleeping tab missed its timer)', async () => {
    const refresh = vi.fn(async () => tokens(Date.now(), HOUR, 2));
    const keeper = createTokenKeeper({ tokens: tokens(0, HOUR), refresh, onLost: vi.fn() });
    // The clock jumps past the due time without the timer firing.
    vi.setSystemTime(HOUR - 30_000);
    expect(await keeper.accessToken()).toBe('access-2');
    expect(refresh).toHaveBeenCalledTimes(1);
    keeper.stop();
  });

  it('runs one refresh for many concurrent requests', async () => {
    let resolve: (value: TokenSet) => void = () => {};
    const refresh = vi.fn(() => new Promise<TokenSet>((r) => (resolve = r)));
    const keeper = createTokenKeeper({ tokens: tokens(0, 60_000), refresh, onLost: vi.fn() });
    vi.setSystemTime(50_000);
    const asked = Promise.all([keeper.accessToken(), keeper.accessToken(), keeper.accessToken()]);
    resolve(tokens(50_000, 60_000, 2));
    expect(await asked).toEqual(['access-2', 'access-2', 'access-2']);
    expect(refresh).toHaveBeenCalledTimes(1);
    keeper.stop();
  });

  it('ends the session when the server refuses the refresh token', async () => {
    const onLost = vi.fn();
    const refresh = vi.fn(async () => {
      throw new RefreshRefusedError('invalid_grant');
    });
    const keeper = createTokenKeeper({ tokens: tokens(0, HOUR), refresh, onLost });
    await vi.advanceTimersByTimeAsync(HOUR - 60_000);
    expect(onLost).toHaveBeenCalledTimes(1);
    await expect(keeper.accessToken()).rejects.toEqual(expect.objectContaining({ status: 401 }));
    await expect(keeper.accessToken()).rejects.toBeInstanceOf(ApiError);
  });

  it('keeps a still-valid token through a network failure and retries', async () => {
    const onLost = vi.fn();
    const refresh = vi
      .fn<(t: TokenSet) => Promise<TokenSet>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(tokens(HOUR, HOUR, 2));
    const keeper = createTokenKeeper({ tokens: tokens(0, HOUR), refresh, onLost });
    await vi.advanceTimersByTimeAsync(HOUR - 60_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onLost).not.toHaveBeenCalled();
    expect(keeper.current().accessToken).toBe('access-1');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(keeper.current().accessToken).toBe('access-2');
    keeper.stop();
  });

  it('ends the session when the refresh fails after the token expired', async () => {
    const onLost = vi.fn();
    const refresh = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const keeper = createTokenKeeper({ tokens: tokens(0, 60_000), refresh, onLost });
    vi.setSystemTime(61_000);
    await expect(keeper.accessToken()).rejects.toBeInstanceOf(ApiError);
    expect(onLost).toHaveBeenCalledTimes(1);
  });

  it('uses a token without expiry as it is, and never refreshes it', async () => {
    const refresh = vi.fn();
    const keeper = createTokenKeeper({ tokens: tokens(0, null), refresh, onLost: vi.fn() });
    await vi.advanceTimersByTimeAsync(10 * HOUR);
    expect(await keeper.accessToken()).toBe('access-1');
    expect(refresh).not.toHaveBeenCalled();
  });
});
