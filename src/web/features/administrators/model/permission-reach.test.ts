import { describe, expect, it } from 'vitest';
import { permissionReach } from './permission-reach.ts';

describe('permissionReach: what the chosen permissions open (issue 27 item 4)', () => {
  it('audit alone opens only the audit log (the reference server’s extension): spec v2 has no read-only permission', () => {
    expect(permissionReach(['audit'], false)).toEqual({
      pages: ['Audit'],
      areas: [{ area: 'The audit log', actions: ['read'] }],
      idle: [],
    });
  });

  it('a moderator opens the lists, the messages and the held queue, and changes no contact', () => {
    const reach = permissionReach(['approval'], false);
    expect(reach.pages).toEqual(['Lists', 'Messages', 'Held messages']);
    expect(reach.areas).toEqual([
      { area: 'Lists and their settings', actions: ['read'] },
      { area: 'Messages', actions: ['read', 'delete', 'show remote images'] },
      {
        area: 'Held messages',
        actions: ['read', 'see the source as received', 'approve', 'reject', 'discard'],
      },
    ]);
    expect(reach.idle).toEqual([]);
  });

  it('general_settings opens its own account’s settings; a global key’s account permission the group’s accounts', () => {
    expect(permissionReach(['general_settings'], false)).toEqual({
      pages: ['Account settings'],
      areas: [
        { area: 'The account’s own settings', actions: ['read', 'change'] },
        { area: 'Custom fields', actions: ['create', 'change', 'delete'] },
      ],
      idle: [],
    });
    const operator = permissionReach(['account'], true);
    expect(operator.pages).toEqual(['Accounts']);
    expect(operator.areas).toEqual([
      { area: 'Accounts of the group', actions: ['read', 'create', 'change', 'delete'] },
    ]);
  });

  it('the limits confine and are never idle; superadmin opens every page', () => {
    expect(permissionReach(['limit_lists', 'membership'], false).idle).toEqual([]);
    const all = permissionReach(['superadmin'], false);
    expect(all.pages).toContain('Administrators');
    expect(all.pages).toContain('Account settings');
    expect(all.pages).not.toContain('Accounts');
  });
});
