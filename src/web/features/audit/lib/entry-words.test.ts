import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../api/schemas/audit.ts';
import { actorWords, summaryOf, valueWords } from './entry-words.ts';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  time: '2027-01-01T00:00:00.000Z',
  actor: { type: 'administrator', id: 3, name: 'ann@example.org' },
  address: '192.0.2.1',
  service: 'api',
  operation: 'lists.update',
  object: { type: 'list', id: '7', list: 'news' },
  changes: [],
  details: {},
  ...over,
});

describe('an audit entry in words', () => {
  it('says who did what to which object', () => {
    expect(summaryOf(entry({}))).toBe('ann@example.org changed the settings of list news');
    expect(
      summaryOf(
        entry({
          operation: 'member.join',
          actor: { type: 'address', id: null, name: 'bo@example.org' },
          object: { type: 'membership', id: '9', list: 'news' },
        }),
      ),
    ).toBe('bo@example.org joined through membership 9 of news');
    expect(
      summaryOf(
        entry({ operation: 'contacts.delete', object: { type: 'contact', id: '4', list: null } }),
      ),
    ).toBe('ann@example.org deleted contact 4');
    expect(
      summaryOf(
        entry({ operation: 'widgets.create', object: { type: 'widget', id: null, list: null } }),
      ),
    ).toBe('ann@example.org created a widget');
  });

  it('names an actor without a name by what it is', () => {
    expect(actorWords({ type: 'administrator', id: 12, name: null })).toBe('Administrator 12');
    expect(actorWords({ type: 'system', id: null, name: null })).toBe('The system');
  });

  it('writes values as a reader reads them', () => {
    expect([null, '', true, false, ['a', 'b'], [], 3].map(valueWords)).toEqual([
      '(none)',
      '(empty)',
      'yes',
      'no',
      'a, b',
      '(none)',
      '3',
    ]);
  });
});
