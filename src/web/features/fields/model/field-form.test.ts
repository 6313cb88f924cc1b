import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../../api/schemas/field.ts';
import {
  administratorLabel,
  FieldFormValues,
  formValuesOf,
  keyOf,
  toCreateInput,
  toUpdateInput,
} from './field-form.ts';

const shoe: CustomField = {
  id: 7,
  name: 'Shoe size',
  identifier: 'shoe',
  key: 'shoe',
  contacts: 2,
};

function problems(values: { name: string; identifier: string }): Record<string, string> {
  const parsed = FieldFormValues.safeParse(values);
  if (parsed.success) return {};
  return Object.fromEntries(
    parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('the custom field form (issue 27 item 1)', () => {
  it('takes the contract’s rules: a name without spaces around it, an identifier of list-name characters or none', () => {
    expect(problems({ name: 'Shoe size', identifier: '' })).toEqual({});
    expect(problems({ name: 'Shoe size', identifier: 'shoe_size-2.0' })).toEqual({});
    expect(problems({ name: '', identifier: '' })).toEqual({ name: 'is required' });
    expect(problems({ name: ' Shoe', identifier: '' })).toEqual({
      name: 'cannot start or end with a space',
    });
    expect(problems({ name: 'Shoe', identifier: 'shoe size' })).toEqual({
      identifier: 'may hold only letters, digits, underscore, period and hyphen',
    });
  });

  it('says the key as it is typed: the identifier, else the name', () => {
    expect(keyOf({ name: 'Shoe size', identifier: '' })).toBe('Shoe size');
    expect(keyOf({ name: 'Shoe size', identifier: 'shoe' })).toBe('shoe');
  });

  it('defines with null for no identifier', () => {
    expect(toCreateInput({ name: 'Pronouns', identifier: '' })).toEqual({
      name: 'Pronouns',
      identifier: null,
    });
    expect(toCreateInput({ name: 'Shoe size', identifier: 'shoe' })).toEqual({
      name: 'Shoe size',
      identifier: 'shoe',
    });
  });

  it('renames with only what changed; an emptied identifier is null', () => {
    expect(formValuesOf(shoe)).toEqual({ name: 'Shoe size', identifier: 'shoe' });
    expect(formValuesOf(null)).toEqual({ name: '', identifier: '' });
    expect(toUpdateInput(shoe, { name: 'Shoe size', identifier: 'shoe' })).toEqual({});
    expect(toUpdateInput(shoe, { name: 'Shoe', identifier: 'shoe' })).toEqual({ name: 'Shoe' });
    expect(toUpdateInput(shoe, { name: 'Shoe size', identifier: '' })).toEqual({
      identifier: null,
    });
    expect(
      toUpdateInput({ ...shoe, identifier: null }, { name: 'Shoe size', identifier: '' }),
    ).toEqual({});
  });

  it('names an administrator by username, else description, else id', () => {
    expect(administratorLabel({ id: 1, username: 'ann@example.com', description: null })).toBe(
      'ann@example.com',
    );
    expect(administratorLabel({ id: 2, username: null, description: 'Nightly export' })).toBe(
      'Nightly export',
    );
    expect(administratorLabel({ id: 3, username: null, description: null })).toBe(
      'Administrator 3',
    );
  });
});
