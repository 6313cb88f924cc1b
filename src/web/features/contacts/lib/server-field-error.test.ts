import { describe, expect, it } from 'vitest';
import { ApiError, RateLimitedError } from '../../../../api/errors.ts';
import { isCcidConflict, serverFieldError } from './server-field-error.ts';

describe('serverFieldError', () => {
  it('names the field the message starts with, if the form has it', () => {
    const error = new ApiError(400, 'firstname: has at most 100 characters');
    expect(serverFieldError(error, ['firstname', 'surname'])).toEqual({
      field: 'firstname',
      message: 'has at most 100 characters',
    });
    expect(serverFieldError(error, ['surname'])).toBeNull();
  });

  it('reads an indexed array field as the array', () => {
    const error = new ApiError(400, 'emails[1]: is already in use');
    expect(serverFieldError(error, ['emails'])?.field).toBe('emails');
  });

  it('leaves other errors alone', () => {
    expect(serverFieldError(new ApiError(400, 'Unknown list: x'), ['lists'])).toBeNull();
    expect(serverFieldError(new ApiError(500, 'firstname: boom'), ['firstname'])).toBeNull();
    expect(
      serverFieldError(new RateLimitedError('firstname: x', new Date(), null), ['firstname']),
    ).toBeNull();
    expect(serverFieldError(new Error('firstname: x'), ['firstname'])).toBeNull();
  });

  it('recognises a taken ccid', () => {
    expect(isCcidConflict(new ApiError(409, 'A contact with ccid C-1 already exists'))).toBe(true);
    expect(isCcidConflict(new ApiError(400, 'x'))).toBe(false);
  });
});
