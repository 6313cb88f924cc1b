import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { serverFieldError } from './server-field-error.ts';

describe('serverFieldError', () => {
  it('finds the field a 400 names first', () => {
    const error = new ApiError(400, 'username: an administrator named a@b.c already exists');
    expect(serverFieldError(error, ['username', 'cidr'])).toEqual({
      field: 'username',
      message: 'an administrator named a@b.c already exists',
    });
  });

  it('ignores fields the form does not have, other statuses and other errors', () => {
    expect(serverFieldError(new ApiError(400, 'get_key: send it alone'), ['username'])).toBeNull();
    expect(serverFieldError(new ApiError(403, 'username: no'), ['username'])).toBeNull();
    expect(serverFieldError(new Error('username: no'), ['username'])).toBeNull();
  });
});
