import { describe, expect, it } from 'vitest';
import type { Permission } from '../../../../api/constants.ts';
import { UNKNOWN_POWERS, type Powers } from '../../../lib/powers.ts';
import { limitsToKeep, mayManageAdministrator } from './caller-bounds.ts';

const powers = (
  permissions: Permission[],
  limitLists: string[] | null = null,
  limitMetadata: string[] | null = null,
): Powers => ({
  known: true,
  global: false,
  permissions: new Set(permissions),
  limitLists,
  limitMetadata,
});
const entry = (permissions: Permission[], lists: string[] = [], fields: string[] = []) => ({
  permissions,
  limit_lists: lists,
  limit_metadata: fields,
});

describe('what a principal may do to other administrators (SECURITY.md 32)', () => {
  const limited = powers(['superadmin', 'limit_lists', 'limit_metadata'], ['club'], ['region']);

  it('a confined principal reaches only administrators confined as narrowly', () => {
    expect(mayManageAdministrator(limited, entry(['superadmin']))).toBe(false);
    expect(
      mayManageAdministrator(limited, entry(['contact', 'limit_lists'], ['club', 'news'])),
    ).toBe(false);
    expect(
      mayManageAdministrator(
        limited,
        entry(['contact', 'limit_lists', 'limit_metadata'], ['club'], ['region']),
      ),
    ).toBe(true);
  });

  it('no administrator with a permission the principal lacks; superadmin holds all but account', () => {
    expect(mayManageAdministrator(powers(['contact']), entry(['contact']))).toBe(true);
    expect(mayManageAdministrator(powers(['contact']), entry(['membership']))).toBe(false);
    expect(mayManageAdministrator(powers(['superadmin']), entry(['billing', 'audit']))).toBe(true);
    expect(mayManageAdministrator(powers(['superadmin']), entry(['superadmin', 'account']))).toBe(
      false,
    );
    expect(mayManageAdministrator(UNKNOWN_POWERS, entry(['superadmin', 'account']))).toBe(true);
  });

  it('passes its limits on to whoever it makes', () => {
    expect(limitsToKeep(limited)).toEqual({
      permissions: ['limit_lists', 'limit_metadata'],
      lists: ['club'],
      fields: ['region'],
    });
    expect(limitsToKeep(powers(['superadmin']))).toEqual({
      permissions: [],
      lists: null,
      fields: null,
    });
  });
});
