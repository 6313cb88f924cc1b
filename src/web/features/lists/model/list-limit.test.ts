import { describe, expect, it } from 'vitest';
import { UNKNOWN_POWERS, type Powers } from '../../../lib/powers.ts';
import { creatableListNames } from './list-limit.ts';

describe('creatableListNames (spec §2.6 limit_lists)', () => {
  it('lets a limited principal create only the lists of its limit the account lacks', () => {
    const limited: Powers = {
      known: true,
      global: false,
      permissions: new Set(['list', 'limit_lists']),
      limitLists: ['club', 'future'],
      limitMetadata: null,
    };
    expect(creatableListNames(limited, [{ name: 'club' }, { name: 'news' }])).toEqual(['future']);
    expect(creatableListNames({ ...limited, limitLists: null }, [])).toBeNull();
    expect(creatableListNames(UNKNOWN_POWERS, [])).toBeNull();
  });
});
