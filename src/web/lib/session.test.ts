import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import {
  authorization,
  endSession,
  getCredentials,
  getSession,
  startSession,
  subscribeSession,
} from './session.ts';
import { createTokenKeeper } from './token-keeper.ts';

afterEach(() => {
  endSession('signed-out');
});

describe('the session', () => {
  it('sends an API key as a Bearer credential, and nothing once signed out', async () => {
    startSession(
      { method: 'key', key: 'the-key' },
      { method: 'key', global: false, identity: 'API key' },
    );
    expect(await authorization()).toEqual({ kind: 'bearer', token: 'the-key' });
    endSession('signed-out');
    await expect(authorization()).rejects.toBeInstanceOf(ApiError);
    expect(getCredentials()).toBeNull();
  });

  it('asks the token keeper for each request, so a refreshed token is used', async () => {
    const keeper = createTokenKeeper({
      tokens: { accessToken: 'first', refreshToken: null, issuedAt: 0, expiresAt: null },
      refresh: () => Promise.reject(new Error('unused')),
      onLost: () => undefined,
    });
    const accessToken = vi
      .spyOn(keeper, 'accessToken')
      .mockResolvedValueOnce('first')
      .mockResolvedValueOnce('second');
    startSession({ method: 'oauth', keeper }, { method: 'oauth', global: true, identity: 'x' });
    expect(await authorization()).toEqual({ kind: 'bearer', token: 'first' });
    expect(await authorization()).toEqual({ kind: 'bearer', token: 'second' });
    expect(accessToken).toHaveBeenCalledTimes(2);
  });

  it('tells subscribers why it ended, and stops the token keeper', () => {
    const keeper = createTokenKeeper({
      tokens: { accessToken: 'a', refreshToken: null, issuedAt: 0, expiresAt: null },
      refresh: () => Promise.reject(new Error('unused')),
      onLost: () => undefined,
    });
    const stop = vi.spyOn(keeper, 'stop');
    startSession({ method: 'oauth', keeper }, { method: 'oauth', global: false, identity: 'x' });
    const seen: unknown[] = [];
    const unsubscribe = subscribeSession(() => seen.push(getSession()));
    endSession('session-expired');
    unsubscribe();
    expect(seen).toEqual([{ status: 'signed-out', ended: 'session-expired' }]);
    expect(stop).toHaveBeenCalled();
  });
});
