import { describe, expect, it } from 'vitest';
import { findTabooMatches, unfoldHeaders } from './taboo.ts';

const headers = [
  'From: Sam <sam@example.com>',
  'Subject: Cheap watches',
  '  for everyone',
  'X-Mailer: BulkSender 2.0',
].join('\r\n');

describe('taboo tester', () => {
  it('unfolds continued header lines', () => {
    expect(unfoldHeaders(headers)).toEqual([
      'From: Sam <sam@example.com>',
      'Subject: Cheap watches for everyone',
      'X-Mailer: BulkSender 2.0',
    ]);
  });

  it('reports the header each rule matches, and only the matching rules', () => {
    const matches = findTabooMatches(
      ['^X-Mailer: Bulk', 'watches for every', '^Cc:'],
      headers,
      'headers',
    );
    expect(matches).toEqual([
      {
        index: 0,
        rule: '^X-Mailer: Bulk',
        line: 'X-Mailer: BulkSender 2.0',
        matched: 'X-Mailer: Bulk',
      },
      {
        index: 1,
        rule: 'watches for every',
        line: 'Subject: Cheap watches for everyone',
        matched: 'watches for every',
      },
    ]);
  });

  it('anchors ^ to one header, not to the block', () => {
    expect(findTabooMatches(['^Subject: Cheap'], headers, 'headers')).toHaveLength(1);
    expect(findTabooMatches(['^Cheap'], headers, 'headers')).toEqual([]);
  });

  it('matches the body across lines and names the line', () => {
    const body = 'Hello,\nbuy now at http://spam.example\nBye';
    const matches = findTabooMatches(['buy now', 'unsubscribe', 'Hello,\\nbuy'], body, 'body');
    expect(matches.map((m) => [m.index, m.line])).toEqual([
      [0, 'buy now at http://spam.example'],
      [2, 'Hello,\nbuy'],
    ]);
  });

  it('skips invalid and empty rules instead of throwing', () => {
    expect(findTabooMatches(['(', '', 'Bye'], 'Bye', 'body')).toEqual([
      { index: 2, rule: 'Bye', line: 'Bye', matched: 'Bye' },
    ]);
  });
});
