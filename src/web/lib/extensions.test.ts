import { describe, expect, it } from 'vitest';
import { ApiError, RateLimitedError } from '../../api/errors.ts';
import { callExtension, carriesField, isMissingOperation } from './extensions.ts';

describe('extension detection', () => {
  it('reads 404 and 405 as a server without the operation, nothing else', () => {
    expect(isMissingOperation(new ApiError(404, 'The API request does not exist'))).toBe(true);
    expect(isMissingOperation(new ApiError(405, 'Method not allowed'))).toBe(true);
    expect(isMissingOperation(new ApiError(403, 'Forbidden'))).toBe(false);
    expect(isMissingOperation(new RateLimitedError('limit', new Date(), null))).toBe(false);
    expect(isMissingOperation(new TypeError('Failed to fetch'))).toBe(false);
  });

  it('answers a missing extension as unsupported and throws any other failure', async () => {
    await expect(callExtension(async () => 'here')).resolves.toEqual({
      supported: true,
      value: 'here',
    });
    await expect(
      callExtension(() => Promise.reject(new ApiError(404, 'The API request does not exist'))),
    ).resolves.toEqual({ supported: false });
    const forbidden = new ApiError(403, 'This key lacks the superadmin permission');
    await expect(callExtension(() => Promise.reject(forbidden))).rejects.toBe(forbidden);
  });

  it('finds a field on any object of an answer, including one whose value is null', () => {
    expect(carriesField([{ id: 1 }, { id: 2, key_expiry: null }], 'key_expiry')).toBe(true);
    expect(carriesField([{ id: 1 }], 'key_expiry')).toBe(false);
    expect(carriesField(undefined, 'max_contacts')).toBe(false);
  });
});
