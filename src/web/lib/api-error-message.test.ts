import { describe, expect, it } from 'vitest';
import { ApiContractError, ApiError, RateLimitedError } from '../../api/errors.ts';
import { describeError, isRefusal } from './api-error-message.ts';

describe('describeError: the one place API errors become words', () => {
  it("names the missing permission of a 403 whose message does not (another server's)", () => {
    expect(describeError(new ApiError(403, 'Forbidden', { operation: 'contacts.create' }))).toBe(
      'Not permitted: Forbidden. This needs the contact permission; an administrator with superadmin can give it.',
    );
    expect(describeError(new ApiError(403, 'Forbidden', { operation: 'lists.update' }))).toMatch(
      /needs the list or list_settings permission/,
    );
    expect(isRefusal(new ApiError(403, 'x'))).toBe(true);
    expect(isRefusal(new ApiError(500, 'x'))).toBe(false);
  });

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
