import { ApiError } from '../../api/errors.ts';
import type { Id } from '../../api/primitives.ts';
import type { Contact, ContactPage, ContactQuery } from '../../api/schemas/contact.ts';
import type { Membership } from '../../api/schemas/membership.ts';

/**
 * How a page of a list's members is read (the members page, and the contacts page filtered by a
 * list). The reference server filters contacts by list (`?list=`, an extension); against a server
 * with spec v2 only, the page is cut from the list's `contacts` (spec §2.4) and each contact read
 * by its id (spec §4.1 `id` names one contact), and a search (or an address) runs across all
 * contacts (spec §4.1) and keeps the members among the matches.
 * A page costs one object per contact read (spec §8 rule 1); paging by ids also costs the list's
 * ids, read once more (and charged one each) when the list was read without them (a ListSummary).
 */
export type MembersMode = 'filter' | 'ids' | 'search';

export interface MembersQuery {
  page: number;
  limit: number;
  search: string;
  /** Only the contact with this address (spec §4.1 `email`); the members page leaves it out. */
  email?: string;
}

export interface MembersPage {
  mode: MembersMode;
  /** The members on this page, with their membership of the list. */
  rows: { contact: Contact; membership: Membership }[];
  /** Pages there are (for a spec-only search: pages of matches, some may hold no member). */
  pages: number;
  /** Members in all (filter, ids) or matching contacts scanned (search). */
  count: number;
  /** By ids: the list's member ids the page was cut from (read once for every page of a job). */
  memberIds?: readonly Id[];
}

/** A spec-only search reads this many matches a page: the members among them are shown. */
export const SEARCH_SCAN_LIMIT = 100;

export interface MemberSource {
  listContacts: (query: ContactQuery, signal?: AbortSignal) => Promise<ContactPage>;
  getContact: (id: Id, signal?: AbortSignal) => Promise<Contact>;
  /** The ids of the list's members (spec §2.4 `contacts`, by spec §4.4 get one). */
  memberIds: (list: string, signal?: AbortSignal) => Promise<readonly Id[]>;
}

/**
 * What reading members needs of a list: its name and its members' ids (spec §2.4), or only how
 * many there are (lib/list-queries.ts ListSummary): the ids are then read if a page needs them.
 */
export type MemberList = { name: string } & (
  | { contacts: readonly Id[] }
  | { memberCount: number }
);

export function memberCountOf(list: MemberList): number {
  return 'contacts' in list ? list.contacts.length : list.memberCount;
}

/** The ids the list was read with; undefined when it was read with their count only. */
export function knownMemberIds(list: MemberList): readonly Id[] | undefined {
  return 'contacts' in list ? list.contacts : undefined;
}

/** The membership of `list` a contact holds, if any. */
export function membershipOf(contact: Contact, list: string): Membership | undefined {
  return contact.lists.find((membership) => membership.list === list);
}

/** The ids of page `page` (from 1) of `limit` members. */
export function idsOfPage<T>(ids: readonly T[], page: number, limit: number): T[] {
  return ids.slice((page - 1) * limit, page * limit);
}

export function pageCount(count: number, limit: number): number {
  return Math.max(1, Math.ceil(count / limit));
}

/**
 * Whether an answer to `?list=` really is the list's members: a server that ignores the unknown
 * parameter answers every contact. Each contact must be on the list, and without a search the
 * count must be the list's size (with one, at most that).
 */
export function looksFiltered(
  page: ContactPage,
  list: string,
  members: number,
  searched: boolean,
): boolean {
  if (!page.data.every((contact) => membershipOf(contact, list))) return false;
  return searched ? page.count <= members : page.count === members;
}

const ID_READS_AT_ONCE = 10;

/** What a server is known to do with `?list=` (per account: one server answers them all). */
const filterSupport = new Map<string, boolean>();

/**
 * One page of a list's members, by the cheapest way the server offers. The first call tries the
 * extension and remembers whether it worked (a 400 or an unfiltered answer: spec only).
 */
export async function fetchMembersPage(
  source: MemberSource,
  supportKey: string,
  list: MemberList,
  query: MembersQuery,
  signal?: AbortSignal,
): Promise<MembersPage> {
  const filters: Pick<ContactQuery, 'search' | 'email'> = {};
  const search = query.search.trim();
  if (search) filters.search = search;
  const email = query.email?.trim();
  if (email) filters.email = email;
  const narrowed = search !== '' || Boolean(email);
  if (filterSupport.get(supportKey) !== false) {
    const contactQuery: ContactQuery = {
      list: list.name,
      page: query.page,
      limit: query.limit,
      ...filters,
    };
    try {
      const answer = await source.listContacts(contactQuery, signal);
      if (looksFiltered(answer, list.name, memberCountOf(list), narrowed)) {
        filterSupport.set(supportKey, true);
        return {
          mode: 'filter',
          rows: withMemberships(answer.data, list.name),
          pages: pageCount(answer.count, query.limit),
          count: answer.count,
        };
      }
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400)) throw error;
    }
    filterSupport.set(supportKey, false);
  }
  if (narrowed) {
    const answer = await source.listContacts(
      { ...filters, page: query.page, limit: SEARCH_SCAN_LIMIT },
      signal,
    );
    return {
      mode: 'search',
      rows: withMemberships(answer.data, list.name),
      pages: pageCount(answer.count, SEARCH_SCAN_LIMIT),
      count: answer.count,
    };
  }
  const allIds = knownMemberIds(list) ?? (await source.memberIds(list.name, signal));
  const ids = idsOfPage(allIds, query.page, query.limit);
  const contacts: (Contact | null)[] = [];
  // A few reads at a time: a page of 1000 (the export) must not open 1000 requests at once.
  for (let start = 0; start < ids.length; start += ID_READS_AT_ONCE) {
    const batch = ids.slice(start, start + ID_READS_AT_ONCE).map((id) =>
      source.getContact(id, signal).catch((error: unknown) => {
        // Removed since the list was read: left out, as it would be a moment later.
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    );
    contacts.push(...(await Promise.all(batch)));
  }
  return {
    mode: 'ids',
    rows: withMemberships(
      contacts.filter((contact) => contact !== null),
      list.name,
    ),
    pages: pageCount(allIds.length, query.limit),
    count: allIds.length,
    memberIds: allIds,
  };
}

/**
 * Every member of the list matching `filters` (exports, bulk work), a page of the largest size at
 * a time (spec §8); `onProgress` hears the pages read of how many.
 */
export async function fetchAllMembers(
  source: MemberSource,
  supportKey: string,
  list: MemberList,
  limit: number,
  signal?: AbortSignal,
  filters: Pick<MembersQuery, 'search' | 'email'> = { search: '' },
  onProgress?: (rows: number, pages: number) => void,
): Promise<MembersPage['rows']> {
  const rows: MembersPage['rows'] = [];
  let from = list;
  for (let page = 1; ; page++) {
    signal?.throwIfAborted();
    const answer = await fetchMembersPage(
      source,
      supportKey,
      from,
      { ...filters, page, limit },
      signal,
    );
    // Paged by ids read for the first page: the next pages are cut from the same ids.
    if (answer.memberIds) from = { name: list.name, contacts: answer.memberIds };
    rows.push(...answer.rows);
    onProgress?.(rows.length, answer.pages);
    if (page >= answer.pages) return rows;
  }
}

function withMemberships(contacts: readonly Contact[], list: string) {
  return contacts.flatMap((contact) => {
    const membership = membershipOf(contact, list);
    return membership ? [{ contact, membership }] : [];
  });
}

/** For tests: forget what servers were found to do. */
export function forgetFilterSupport(): void {
  filterSupport.clear();
}
