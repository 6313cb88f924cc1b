import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../api/errors.ts';
import { isCcidConflict } from './ccid-conflict.ts';

describe('isCcidConflict', () => {
  it('recognises a taken ccid', () => {
    expect(isCcidConflict(new ApiError(409, 'A contact with ccid C-1 already exists'))).toBe(true);
    expect(isCcidConflict(new ApiError(400, 'x'))).toBe(false);
  });
});
