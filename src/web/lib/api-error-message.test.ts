import { describe, expect, it } from 'vitest';
import { ApiContractError, ApiError, RateLimitedError } from '../../api/errors.ts';
import { describeError } from './api-error-message.ts';

describe('describeError: the one place API errors become words', () => {
  it('words each kind of failure', () => {
    expect(
      describeError(
        new ApiError(0, 'The server cannot be reached. Check the connection and try again.'),
      ),
    ).toBe('The server cannot be reached. Check the connection and try again.');
    expect(describeError(new ApiError(401, 'Authentication failed'))).toMatch(
      /refused the credentials/,
    );
    expect(describeError(new ApiError(403, 'This key lacks the contact permission'))).toBe(
      'Not permitted: This key lacks the contact permission',
    );
    expect(describeError(new ApiError(404, 'Account not found'))).toBe(
      'Not found: Account not found',
    );
    expect(describeError(new ApiError(400, 'name: is required'))).toBe('name: is required');
    expect(describeError(new ApiError(503, 'x'))).toBe(
      'The server failed to answer (503). Try again later.',
    );
    expect(describeError(new ApiContractError(200, 'bad shape'))).toMatch(
      /^The server answered in a form/,
    );
    expect(describeError(new RateLimitedError('over', new Date(), 6))).toMatch(
      /allowance is used up until/,
    );
    expect(describeError(new Error('plain'))).toBe('plain');
    expect(describeError('?')).toBe('Something went wrong.');
  });
});
