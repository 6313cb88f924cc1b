import { describe, expect, it } from 'vitest';
import { UNKNOWN_POWERS, type Powers } from './powers.ts';
import { reachableLists, reachesField } from './reach.ts';

const limited: Powers = {
  known: true,
  global: false,
  permissions: new Set(['contact', 'limit_lists', 'limit_metadata']),
  limitLists: ['club'],
  limitMetadata: ['region'],
};
const free: Powers = { ...limited, limitLists: null, limitMetadata: null };

describe('reach: limit_lists and limit_metadata (spec §2.6, issue 17 item 2)', () => {
  it('offers a limited principal its own lists only', () => {
    const lists = [{ name: 'club' }, { name: 'news' }];
    expect(reachableLists(limited, lists)).toEqual([{ name: 'club' }]);
    expect(reachableLists(free, lists)).toEqual(lists);
    expect(reachableLists(UNKNOWN_POWERS, lists)).toEqual(lists);
  });

  it('writes only the custom fields of the limit', () => {
    expect(reachesField(limited, 'region')).toBe(true);
    expect(reachesField(limited, 'Shoe size')).toBe(false);
    expect(reachesField(free, 'Shoe size')).toBe(true);
  });
});
