import { describe, expect, it } from 'vitest';
import { ApiContractError, ApiError, RateLimitedError } from '../../api/errors.ts';
import { describeError, isRefusal, withoutSpecReferences } from './api-error-message.ts';

describe('describeError: the one place API errors become words', () => {
  it("names the missing permission of a 403 whose message does not (another server's)", () => {
    expect(describeError(new ApiError(403, 'Forbidden', { operation: 'contacts.create' }))).toBe(
      'Not permitted: Forbidden. This needs the contact permission; an administrator with superadmin can give it.',
    );
    expect(describeError(new ApiError(403, 'Forbidden', { operation: 'lists.update' }))).toMatch(
      /needs the list or list_settings permission/,
    );
    // A principal that holds the permission was refused for another reason: no wrong advice.
    const contactAdmin = {
      known: true,
      global: false,
      permissions: new Set(['contact', 'limit_lists'] as const),
      limitLists: ['community'],
      limitMetadata: null,
    } as const;
    const limited =
      'This key is limited to some lists (limit_lists): this contact is also on others';
    expect(
      describeError(new ApiError(403, limited, { operation: 'contacts.update' }), contactAdmin),
    ).toBe(`Not permitted: ${limited}`);
    // Offered no "Try again": a missing permission, a message outside the key's lists (404).
    for (const status of [400, 403, 404]) expect(isRefusal(new ApiError(status, 'x'))).toBe(true);
    for (const status of [429, 500, 503]) expect(isRefusal(new ApiError(status, 'x'))).toBe(false);
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

describe('withoutSpecReferences: people read no spec sections', () => {
  it('drops a reference in parentheses or after a comma, and keeps the rest', () => {
    expect(withoutSpecReferences('A JSON body must be an object of fields (spec §1)')).toBe(
      'A JSON body must be an object of fields',
    );
    expect(withoutSpecReferences('username: is not applicable (spec §9 rule 3)')).toBe(
      'username: is not applicable',
    );
    expect(withoutSpecReferences('Send form fields (x or y, spec §1) or JSON')).toBe(
      'Send form fields (x or y) or JSON',
    );
    expect(withoutSpecReferences('Queued (§4.5)')).toBe('Queued');
    expect(withoutSpecReferences('name: is required')).toBe('name: is required');
  });

  it('is applied to every error the dashboard words', () => {
    expect(describeError(new ApiError(403, 'This key lacks approval (spec §5.1 rule 6)'))).toBe(
      'Not permitted: This key lacks approval',
    );
  });
});
