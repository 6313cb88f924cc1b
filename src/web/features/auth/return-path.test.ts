import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.ts';

describe('safeReturnPath', () => {
  it('keeps a path of the app with its query', () => {
    expect(safeReturnPath('/a/7/contacts?page=2')).toBe('/a/7/contacts?page=2');
    expect(safeReturnPath('/lists')).toBe('/lists');
  });

  it('never leaves the origin', () => {
    for (const next of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'lists',
    ]) {
      expect(safeReturnPath(next)).toBe('/');
    }
  });

  it('does not return to the sign-in pages, nor without a path', () => {
    expect(safeReturnPath('/sign-in?next=/x')).toBe('/');
    expect(safeReturnPath('/auth/callback?code=x')).toBe('/');
    expect(safeReturnPath(null)).toBe('/');
    expect(safeReturnPath('')).toBe('/');
  });
});
