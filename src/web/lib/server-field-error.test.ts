import { describe, expect, it } from 'vitest';
import { ApiError, RateLimitedError } from '../../api/errors.ts';
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
    // The contract's path form, as the server refuses a pattern it cannot run (SECURITY.md 31).
    const pattern = new ApiError(
      400,
      'restrict_contact.1: uses a backreference, which the server does not run',
    );
    expect(serverFieldError(pattern, ['restrict_contact'])).toEqual({
      field: 'restrict_contact',
      message: 'uses a backreference, which the server does not run',
    });
  });

  it('leaves other errors alone', () => {
    expect(serverFieldError(new ApiError(400, 'Unknown list: x'), ['lists'])).toBeNull();
    expect(serverFieldError(new ApiError(500, 'firstname: boom'), ['firstname'])).toBeNull();
    expect(
      serverFieldError(new RateLimitedError('firstname: x', new Date(), null), ['firstname']),
    ).toBeNull();
  });
});

describe('serverFieldError: the answers that name no field', () => {
  it('puts an address in use on the form’s addresses, naming it', () => {
    const error = new ApiError(400, 'ann@example.org already belongs to contact 5');
    expect(serverFieldError(error, ['firstname', 'emails'])).toEqual({
      field: 'emails',
      message: 'already belongs to another contact (5)',
      address: 'ann@example.org',
    });
    expect(serverFieldError(error, ['email'])?.field).toBe('email');
    expect(serverFieldError(error, ['firstname'])).toBeNull();
  });

  it('puts a taken ccid (409) on the ccid', () => {
    const error = new ApiError(409, 'A contact with ccid c-1 already exists');
    expect(serverFieldError(error, ['ccid'])?.field).toBe('ccid');
    expect(serverFieldError(error, ['notes'])).toBeNull();
    expect(serverFieldError(new ApiError(409, 'Another request took it'), ['ccid'])).toBeNull();
  });
});
