import { describe, expect, it } from 'vitest';
import { errorOf, fieldErrorText } from './field-error-text.ts';

describe('fieldErrorText', () => {
  it("puts the label first for the contract's messages and leaves sentences whole", () => {
    expect(fieldErrorText('Reply-to address', { message: 'is not a valid email address' })).toBe(
      'Reply-to address is not a valid email address.',
    );
    expect(fieldErrorText('Name', { message: 'Invalid input.' })).toBe('Invalid input.');
    expect(fieldErrorText('Name', undefined)).toBeUndefined();
    expect(fieldErrorText('Name', { message: '' })).toBeUndefined();
  });

  it("reads a server's message as a sentence of its own unless it completes one about the field", () => {
    expect(
      fieldErrorText('Name', { type: 'server', message: 'a list named x already exists' }),
    ).toBe('A list named x already exists.');
    expect(
      fieldErrorText('First name', { type: 'server', message: 'has at most 100 characters' }),
    ).toBe('First name has at most 100 characters.');
    // An address leading the sentence keeps its case.
    expect(
      fieldErrorText('The address', {
        type: 'server',
        message: 'ann@example.org already belongs to contact 5',
      }),
    ).toBe('ann@example.org already belongs to contact 5.');
  });
});

describe('errorOf', () => {
  it("announces the server's refusals, not the rules checked while typing", () => {
    expect(
      errorOf('List', { type: 'server', message: 'no list named news in this account' }),
    ).toEqual({ error: 'No list named news in this account.', announce: true });
    expect(errorOf('Name', { type: 'too_small', message: 'is required' })).toEqual({
      error: 'Name is required.',
      announce: false,
    });
  });
});
