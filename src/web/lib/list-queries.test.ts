import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { List } from '../../api/schemas/list.ts';
import { forgetCountSupport, readSummaries, updateQuery, withMemberIds } from './list-queries.ts';

/** A list as spec §4.4 answers it (ids), or as `contacts=count` does (LIST_QUERY_EXTENSIONS). */
function list(name: string, ids: number[], counted: boolean): List {
  return {
    id: name.length,
    name,
    created: '2026-01-01 00:00:00',
    ...(counted ? { contacts: [], contacts_count: ids.length } : { contacts: ids }),
  } as List;
}

/** A server that offers the count, refuses the parameter (EXTENSIONS=off) or ignores it. */
function server(kind: 'extension' | 'refuses' | 'ignores') {
  const asked: boolean[] = [];
  const read = (counted: boolean) => {
    asked.push(counted);
    if (counted && kind === 'refuses') return Promise.reject(new ApiError(400, 'contacts: unknown'));
    const withCount = counted && kind === 'extension';
    return Promise.resolve([list('club', [1, 2, 3], withCount), list('news', [], withCount)]);
  };
  return { read, asked };
}

describe('list summaries (the member count without the ids, spec §8 rule 1)', () => {
  beforeEach(forgetCountSupport);

  it('asks for the count where the server offers it', async () => {
    const { read, asked } = server('extension');
    const lists = await readSummaries('a', read);
    expect(lists.map((l) => [l.name, l.memberCount])).toEqual([['club', 3], ['news', 0]]);
    expect(lists[0]).not.toHaveProperty('contacts');
    expect(asked).toEqual([true]);
  });

  it('reads the ids where the server refuses the parameter, and asks no more', async () => {
    const { read, asked } = server('refuses');
    const lists = await readSummaries('b', read);
    expect(lists.map((l) => l.memberCount)).toEqual([3, 0]);
    await readSummaries('b', read);
    expect(asked).toEqual([true, false, false]);
  });

  it('counts the ids a server that ignores the parameter sends, and asks no more', async () => {
    const { read, asked } = server('ignores');
    expect((await readSummaries('c', read)).map((l) => l.memberCount)).toEqual([3, 0]);
    await readSummaries('c', read);
    expect(asked).toEqual([true, false]);
  });

  it('passes any other failure on', async () => {
    const failing = () => Promise.reject(new ApiError(403, 'Not permitted'));
    await expect(readSummaries('d', failing)).rejects.toMatchObject({ status: 403 });
  });
});

describe('list updates (the count where the server is known to offer it)', () => {
  beforeEach(forgetCountSupport);

  it('asks an update for the count only where a read found the extension', async () => {
    expect(updateQuery('e')).toEqual({});
    await readSummaries('e', server('extension').read);
    expect(updateQuery('e')).toEqual({ contacts: 'count' });
    await readSummaries('f', server('refuses').read);
    expect(updateQuery('f')).toEqual({});
    await readSummaries('g', server('ignores').read);
    expect(updateQuery('g')).toEqual({});
  });

  it('keeps the cached ids for an answer that counted them, and nothing without them', () => {
    const cached = list('club', [1, 2, 3], false);
    const answered = { ...list('club', [1, 2, 3], true), description: 'New' };
    expect(withMemberIds(answered, cached)).toEqual({ ...cached, description: 'New' });
    expect(withMemberIds(answered, undefined)).toBeUndefined();
    const plain = list('club', [4], false);
    expect(withMemberIds(plain, cached)).toBe(plain);
  });
});
