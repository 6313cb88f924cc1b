import { describe, expect, it } from 'vitest';
import { fromHeaderProblem } from './from-header.ts';

const from = (...values: string[]) => values.map((value) => ({ name: 'From', value }));

describe('a From header that names one author (issue 28; RFC 5322 §3.6.2, §3.4)', () => {
  it.each([
    'ada@example.org',
    'Ada Lovelace <ada@example.org>',
    '"Lovelace, Ada" <ada@example.org>',
    '"board@demo.example" <ada@example.org>',
    '=?utf-8?q?Ada_L=C3=B6velace?= <ada@example.org>',
    'ada@example.org (Ada)',
    'Ada <ada@example.org> (the countess)',
  ])('%s is fine', (value) => {
    expect(fromHeaderProblem(from(value), ['ada@example.org'])).toBeNull();
  });

  it.each([
    [[], [], 'is missing'],
    [from('a@example.org', 'b@example.org'), ['a@example.org'], 'appears 2 times'],
    [from('a@example.org, b@example.org'), ['a@example.org', 'b@example.org'], 'names 2 addresses'],
    [from('Undisclosed:;'), [], 'holds no address'],
    [from('<board@demo.example>@evil.example'), ['board@demo.example'], 'is malformed'],
    [from('board@demo.example <ada@example.org>'), ['ada@example.org'], 'is malformed'],
    [from('Board <board@demo.example'), ['board@demo.example'], 'is malformed'],
    [from('"Board <board@demo.example>'), ['board@demo.example'], 'is malformed'],
    [from('<<board@demo.example>>'), ['board@demo.example'], 'is malformed'],
  ] as const)('%j: %s', (headers, mailboxes, problem) => {
    expect(fromHeaderProblem(headers, mailboxes)).toContain(problem);
  });
});
