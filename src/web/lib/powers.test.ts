import { describe, expect, it } from 'vitest';
import type { CallerInfo } from './caller-queries.ts';
import { landingSection, mayCall, openSections, permissionsFor, powersOf } from './powers.ts';

const caller = (permissions: string[], limitLists: string[] = []): CallerInfo =>
  ({
    supported: true,
    address: '127.0.0.1',
    account: { id: 1, name: 'acme' },
    administrator: {
      id: 7,
      username: null,
      description: 'desk',
      firstname: '',
      surname: '',
      permissions,
      limit_lists: limitLists,
      limit_metadata: [],
    },
  }) as CallerInfo;

describe('powers: what the signed-in principal may do (issue 17 item 2)', () => {
  it('follows the contract table: a moderator reads messages and lists, works the held queue, nothing else', () => {
    const moderator = powersOf(caller(['approval', 'messages']), false);
    expect(openSections(moderator)).toEqual(['lists', 'messages', 'held']);
    expect(landingSection(moderator)).toBe('held');
    expect(mayCall(moderator, 'messages.send')).toBe(true);
    expect(mayCall(moderator, 'contacts.create')).toBe(false);
    expect(mayCall(moderator, 'lists.create')).toBe(false);
    expect(mayCall(moderator, 'users.create')).toBe(false);
  });

  it('superadmin may all within its account; accounts need a global principal', () => {
    const admin = powersOf(caller(['superadmin']), false);
    expect(openSections(admin)).toEqual([
      'contacts',
      'lists',
      'messages',
      'held',
      'requests',
      'administrators',
    ]);
    expect(landingSection(admin)).toBe('contacts');
    expect(mayCall(admin, 'accounts.list')).toBe(false);
    expect(mayCall(powersOf(caller(['superadmin', 'account']), true), 'accounts.list')).toBe(true);
  });

  it('an account’s own general_settings or superadmin reads and saves its own account, nothing else of the group’s', () => {
    for (const permissions of [['general_settings'], ['superadmin']]) {
      const own = powersOf(caller(permissions), false);
      expect(mayCall(own, 'accounts.get')).toBe(true);
      expect(mayCall(own, 'accounts.update')).toBe(true);
      for (const operation of ['accounts.list', 'accounts.create', 'accounts.delete'] as const)
        expect(mayCall(own, operation)).toBe(false);
    }
    expect(mayCall(powersOf(caller(['list', 'contact']), false), 'accounts.get')).toBe(false);
  });

  it('membership opens the Requests page (issue 25 item 5) beside contacts and lists', () => {
    const desk = powersOf(caller(['membership']), false);
    expect(openSections(desk)).toEqual(['contacts', 'lists', 'requests']);
    expect(landingSection(desk)).toBe('contacts');
    expect(mayCall(desk, 'requests.bulk')).toBe(true);
    expect(openSections(powersOf(caller(['approval']), false))).not.toContain('requests');
  });

  it('keeps the list limit only while limit_lists is on', () => {
    expect(powersOf(caller(['membership', 'limit_lists'], ['news']), false)).toMatchObject({
      limitLists: ['news'],
    });
    expect(powersOf(caller(['membership'], ['news']), false)).toMatchObject({ limitLists: null });
  });

  it('unknown (a server without the caller extension): everything shows', () => {
    const unknown = powersOf(
      { supported: false, address: null, administrator: null, account: null },
      false,
    );
    expect(unknown.known).toBe(false);
    expect(mayCall(unknown, 'users.delete')).toBe(true);
    expect(landingSection(unknown)).toBe('contacts');
  });

  it('words the permissions an operation needs', () => {
    expect(permissionsFor('contacts.list')).toBe('contact or membership');
    expect(permissionsFor('users.list')).toBe('superadmin');
    expect(permissionsFor('lists.list')).toBe(
      'list, list_settings, membership, contact, messages or approval',
    );
  });
});
