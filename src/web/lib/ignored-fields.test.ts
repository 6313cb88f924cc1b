import { describe, expect, it } from 'vitest';
import { parseIgnoredFields } from './ignored-fields.ts';

describe('parseIgnoredFields (X-Ignored-Fields, SECURITY.md 17)', () => {
  it('reads names, percent-decoded, with the empty name and the ellipsis', () => {
    expect(parseIgnoredFields('shoe_size, id')).toEqual(['shoe_size', 'id']);
    expect(parseIgnoredFields('a%2Cb, %22, "", %E2%80%A6')).toEqual([
      'a,b',
      '%22'.replace('%22', '"'),
      '',
      '…',
    ]);
    expect(parseIgnoredFields(null)).toEqual([]);
    expect(parseIgnoredFields('')).toEqual([]);
  });
});
