import { describe, expect, it } from 'vitest';
import { sectionOf, sectionPath } from './account-scope.ts';

describe('account-scoped paths', () => {
  it("put a global principal's account in the URL", () => {
    expect(sectionPath('7', 'lists')).toBe('/a/7/lists');
    expect(sectionPath(null, 'lists')).toBe('/lists');
    expect(sectionPath('a b', 'contacts')).toBe('/a/a%20b/contacts');
  });

  it('find the section of a path, with or without an account', () => {
    expect(sectionOf('/a/7/messages')).toBe('messages');
    expect(sectionOf('/a/7/contacts/42')).toBe('contacts');
    expect(sectionOf('/administrators')).toBe('administrators');
    expect(sectionOf('/accounts')).toBeNull();
    expect(sectionOf('/a/7')).toBeNull();
  });
});
