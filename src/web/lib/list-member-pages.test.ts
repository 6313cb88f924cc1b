import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { Id } from '../../api/primitives.ts';
import type { Contact, ContactPage, ContactQuery } from '../../api/schemas/contact.ts';
import {
  fetchAllMembers,
  fetchMembersPage,
  forgetFilterSupport,
  idsOfPage,
  SEARCH_SCAN_LIMIT,
  type MemberSource,
} from './list-member-pages.ts';

function contact(id: number, lists: string[]): Contact {
  return {
    id,
    ccid: null,
    firstname: `First${id}`,
    surname: '',
    created: '2026-01-01 00:00:00',
    notes: '',
    emails: [{ id, contact: id, email: `c${id}@example.org`, digest: false, paused: false, confirmed: true, ceid: null }],
    lists: lists.map((list, index) => ({ id: id * 10 + index, contact: id, list, digest: null })),
  };
}

/** 120 contacts; the even ones are on "club". A spec-only server refuses or ignores `list`. */
function server(kind: 'extension' | 'refuses' | 'ignores') {
  const all = Array.from({ length: 120 }, (_, i) => contact(i + 1, (i + 1) % 2 === 0 ? ['club'] : ['other']));
  const calls: string[] = [];
  const source: MemberSource = {
    listContacts: (query: ContactQuery) => {
      calls.push(`list ${JSON.stringify(query)}`);
      if (query.list !== undefined && kind === 'refuses') return Promise.reject(new ApiError(400, 'list: unknown'));
      let found = all;
      if (query.list !== undefined && kind === 'extension')
        found = found.filter((c) => c.lists.some((m) => m.list === query.list));
      if (query.search) found = found.filter((c) => String(c.id).includes(query.search ?? ''));
      if (query.email) found = found.filter((c) => c.emails.some((e) => e.email === query.email));
      const page = query.page ?? 1;
      const limit = query.limit ?? 100;
      const answer: ContactPage = { count: found.length, page, data: found.slice((page - 1) * limit, page * limit) };
      return Promise.resolve(answer);
    },
    getContact: (id: Id) => {
      calls.push(`get ${String(id)}`);
      const found = all.find((c) => c.id === id);
      return found ? Promise.resolve(found) : Promise.reject(new ApiError(404, 'Contact not found'));
    },
    memberIds: (list: string) => {
      calls.push(`ids ${list}`);
      return Promise.resolve(list === 'club' ? club.contacts : []);
    },
  };
  const club = { name: 'club', contacts: all.filter((c) => Number(c.id) % 2 === 0).map((c) => c.id) };
  /** The list as read with its member count only (the `contacts=count` extension). */
  const counted = { name: 'club', memberCount: club.contacts.length };
  return { source, calls, club, counted };
}

describe('members paging', () => {
  beforeEach(forgetFilterSupport);

  it('cuts pages from the ids', () => {
    expect(idsOfPage([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4]);
    expect(idsOfPage([1, 2, 3, 4, 5], 3, 2)).toEqual([5]);
    expect(idsOfPage([1, 2, 3], 4, 2)).toEqual([]);
  });

  it('uses the list filter in one request a page where the server has it', async () => {
    const { source, calls, club } = server('extension');
    const page = await fetchMembersPage(source, 'a', club, { page: 2, limit: 25, search: '' });
    expect(page.mode).toBe('filter');
    expect(page.count).toBe(60);
    expect(page.pages).toBe(3);
    expect(page.rows.map((row) => row.contact.id)).toEqual(club.contacts.slice(25, 50));
    expect(page.rows[0]?.membership.list).toBe('club');
    expect(calls).toHaveLength(1);
  });

  it('falls back to the list’s ids when the server refuses the filter, and remembers', async () => {
    const { source, calls, club } = server('refuses');
    const page = await fetchMembersPage(source, 'b', club, { page: 3, limit: 25, search: '' });
    expect(page.mode).toBe('ids');
    expect(page.rows.map((row) => row.contact.id)).toEqual(club.contacts.slice(50, 60));
    expect(page.pages).toBe(3);
    expect(calls.filter((call) => call.startsWith('get'))).toHaveLength(10);
    calls.length = 0;
    await fetchMembersPage(source, 'b', club, { page: 1, limit: 25, search: '' });
    expect(calls.some((call) => call.includes('"list"'))).toBe(false);
  });

  it('notices a server that ignores the filter (its answer holds non-members)', async () => {
    const { source, club } = server('ignores');
    const page = await fetchMembersPage(source, 'c', club, { page: 1, limit: 25, search: '' });
    expect(page.mode).toBe('ids');
    expect(page.rows.every((row) => Number(row.contact.id) % 2 === 0)).toBe(true);
    expect(page.rows).toHaveLength(25);
  });

  it('searches across all contacts on a spec-only server and keeps the members', async () => {
    const { source, calls, club } = server('refuses');
    const page = await fetchMembersPage(source, 'd', club, { page: 1, limit: 25, search: '1' });
    expect(page.mode).toBe('search');
    expect(calls.at(-1)).toContain(`"limit":${SEARCH_SCAN_LIMIT}`);
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((row) => String(row.contact.id).includes('1') && Number(row.contact.id) % 2 === 0)).toBe(true);
  });

  it('finds a member by address either way, and no one off the list (the contacts page)', async () => {
    for (const kind of ['extension', 'refuses', 'ignores'] as const) {
      const { source, club } = server(kind);
      const member = await fetchMembersPage(source, `email-${kind}`, club, { page: 1, limit: 25, search: '', email: 'c4@example.org' });
      expect(member.rows.map((row) => row.contact.id), kind).toEqual([4]);
      const stranger = await fetchMembersPage(source, `email-${kind}`, club, { page: 1, limit: 25, search: '', email: 'c5@example.org' });
      expect(stranger.rows, kind).toEqual([]);
    }
  });

  it('reads every member matching a search for bulk work, and says how far it got', async () => {
    const { source, club } = server('refuses');
    const progress: number[] = [];
    const rows = await fetchAllMembers(source, 'all-search', club, 25, undefined, { search: '1' }, (read) => progress.push(read));
    expect(rows.every((row) => String(row.contact.id).includes('1') && Number(row.contact.id) % 2 === 0)).toBe(true);
    expect(progress.at(-1)).toBe(rows.length);
  });

  it('leaves out a member deleted since the list was read', async () => {
    const { source, club } = server('refuses');
    const page = await fetchMembersPage(source, 'e', { ...club, contacts: [2, 999, 4] }, { page: 1, limit: 25, search: '' });
    expect(page.rows.map((row) => row.contact.id)).toEqual([2, 4]);
  });

  it('pages a list read with its count by the filter, never reading its ids', async () => {
    const { source, calls, club, counted } = server('extension');
    const page = await fetchMembersPage(source, 'f', counted, { page: 2, limit: 25, search: '' });
    expect(page.mode).toBe('filter');
    expect(page.rows.map((row) => row.contact.id)).toEqual(club.contacts.slice(25, 50));
    expect(calls.some((call) => call.startsWith('ids'))).toBe(false);
  });

  it('reads the ids of a list read with its count once, when the server pages by ids only', async () => {
    const { source, calls, club, counted } = server('refuses');
    const page = await fetchMembersPage(source, 'g', counted, { page: 3, limit: 25, search: '' });
    expect(page.mode).toBe('ids');
    expect(page.rows.map((row) => row.contact.id)).toEqual(club.contacts.slice(50, 60));
    expect(page.count).toBe(60);
    calls.length = 0;
    const rows = await fetchAllMembers(source, 'g', counted, 25);
    expect(rows.map((row) => row.contact.id)).toEqual(club.contacts);
    // Three pages, one read of the ids.
    expect(calls.filter((call) => call.startsWith('ids'))).toEqual(['ids club']);
  });

  it('reads every member for the export, either way', async () => {
    for (const kind of ['extension', 'refuses'] as const) {
      const { source, club } = server(kind);
      const rows = await fetchAllMembers(source, `all-${kind}`, club, 25);
      expect(rows.map((row) => row.contact.id)).toEqual(club.contacts);
    }
  });
});
