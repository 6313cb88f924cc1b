import type { Kysely } from 'kysely';
import type { ReactElement } from 'react';
import type { Database } from '../../db/schema.ts';
import { ARCHIVE_SEARCH_CHARS } from '../../db/migrations/2026-11-29T0500-archive.ts';
import type { PublicList } from '../../members/public-list.ts';
import {
  archivedMessage,
  countBetween,
  countsBetween,
  countThread,
  messagesBetween,
  monthsWithMessages,
  searchIds,
  searchResults,
  summariesOf,
  threadMessages,
  threadsPage as readThreads,
} from '../../repositories/archive.repository.ts';
import { ArchiveMessagePage } from '../pages/archive-message-page.ts';
import { ArchiveMonthPage } from '../pages/archive-month-page.ts';
import { ArchiveMonthsPage } from '../pages/archive-months-page.ts';
import { ArchiveSearchPage } from '../pages/archive-search-page.ts';
import { ArchiveThreadPage } from '../pages/archive-thread-page.ts';
import { ArchiveThreadsPage, type ShownThread } from '../pages/archive-threads-page.ts';
import type { ArchivePlace } from './archive-layout.ts';
import { idIn } from './archive-paths.ts';
import type { ArchiveQuery } from './archive-routes.ts';
import { MONTH_SHAPE, monthOf, monthRange, showMessage } from './archive-view.ts';
import { shownText } from './hide-addresses.ts';
import { searchTerms, snippetOf } from './search-terms.ts';

/** What a reader's page is rendered from; the reader may read the archive. */
export interface Reading {
  db: Kysely<Database>;
  list: PublicList;
  place: ArchivePlace;
  spammode: boolean;
  query: ArchiveQuery;
  params: Record<string, string>;
  /** A message's HTML, sanitized for the archive (sanitizer-pool.ts). */
  sanitize: (html: string) => Promise<string>;
}

export const ARCHIVE_PAGES = {
  threads: 30,
  months: 24,
  /** Months a reader may page back through: a century. */
  monthPages: 50,
  messages: 50,
  results: 20,
  /** A thread shows its first messages up to this many, on its page and around a message. */
  thread: 300,
  /** HTML over this many characters is not shown (its plain text is): sanitizing takes ~1.5 ms/kB. */
  htmlChars: 512 * 1024,
} as const;

/** The front page: threads, the newest begun first (by `?before=`, read backwards by `?after=`). */
export async function threadsPage(r: Reading): Promise<ReactElement> {
  const size = ARCHIVE_PAGES.threads;
  const { before, after } = r.query;
  let rows;
  let newer: string | null;
  let older: string | null;
  if (after === undefined) {
    rows = await readThreads(r.db, r.list.id, { before: before ?? null }, size + 1);
    // The thread at `before` ended the newer page.
    newer = before === undefined || before === 0 ? null : `?after=${before - 1}`;
    older = rows.length > size ? `?before=${rows[size - 1]?.threadId}` : null;
    rows = rows.slice(0, size);
  } else {
    rows = await readThreads(r.db, r.list.id, { after }, size + 1);
    newer = rows.length > size ? `?after=${rows[size - 1]?.threadId}` : null;
    older = `?before=${after + 1}`;
    rows = rows.slice(0, size).reverse();
  }
  const messages = new Map(
    (
      await summariesOf(
        r.db,
        r.list.id,
        rows.flatMap((row) => [row.firstId, row.lastId]),
      )
    ).map((row) => [row.id, showMessage(row, r.spammode)]),
  );
  const threads: ShownThread[] = rows.flatMap((row) => {
    const first = messages.get(row.firstId);
    const last = messages.get(row.lastId);
    return first && last ? [{ first, last, messages: row.messages }] : [];
  });
  return ArchiveThreadsPage({
    place: r.place,
    description: shownText(r.list.settings.description.trim(), r.spammode),
    threads,
    newer,
    older,
  });
}

/** The months with messages, newest first, and their counts: two statements, whatever the archive. */
export async function monthsPage(r: Reading): Promise<ReactElement | null> {
  const page = r.query.page ?? 1;
  if (page > ARCHIVE_PAGES.monthPages) return null;
  const size = ARCHIVE_PAGES.months;
  // The months of the pages before too, and one more to know whether an older page exists.
  const found = (await monthsWithMessages(r.db, r.list.id, page * size + 1)).map(monthOf);
  const shown = found.slice((page - 1) * size, page * size);
  if (shown.length === 0 && page > 1) return null;
  const counts = await countsBetween(r.db, r.list.id, shown.map(monthRange));
  return ArchiveMonthsPage({
    place: r.place,
    months: shown.map((month, index) => ({ month, messages: counts[index] ?? 0 })),
    newer: page > 1 ? (page === 2 ? './' : `?page=${page - 1}`) : null,
    older: found.length > page * size ? `?page=${page + 1}` : null,
  });
}

/** One month's messages (`YYYY-MM`, UTC), newest first. */
export async function monthPage(r: Reading): Promise<ReactElement | null> {
  const month = r.params.item ?? '';
  if (!MONTH_SHAPE.test(month)) return null;
  const range = monthRange(month);
  const count = await countBetween(r.db, r.list.id, range.from, range.to);
  const size = ARCHIVE_PAGES.messages;
  const pages = Math.ceil(count / size);
  const page = r.query.page ?? 1;
  if (count === 0 || page > pages) return null;
  const rows = await messagesBetween(r.db, r.list.id, {
    ...range,
    offset: (page - 1) * size,
    limit: size,
  });
  return ArchiveMonthPage({
    place: r.place,
    month,
    messages: rows.map((row) => showMessage(row, r.spammode)),
    count,
    page,
    pages,
    newer: page > 1 ? (page === 2 ? './' : `?page=${page - 1}`) : null,
    older: page < pages ? `?page=${page + 1}` : null,
  });
}

/** A thread's messages as a tree. */
export async function threadPage(r: Reading): Promise<ReactElement | null> {
  const threadId = idIn(r.params.thread);
  if (threadId === null) return null;
  const rows = await threadMessages(r.db, r.list.id, threadId, ARCHIVE_PAGES.thread);
  if (rows.length === 0) return null;
  const total =
    rows.length < ARCHIVE_PAGES.thread ? rows.length : await countThread(r.db, r.list.id, threadId);
  return ArchiveThreadPage({
    place: r.place,
    messages: rows.map((row) => showMessage(row, r.spammode)),
    total,
  });
}

/** One message, its HTML sanitized (SECURITY.md 12, 48), with its thread around it. */
export async function messagePage(r: Reading): Promise<ReactElement | null> {
  const id = idIn(r.params.item);
  if (id === null) return null;
  const row = await archivedMessage(r.db, r.list.id, id);
  if (!row) return null;
  const [thread, parents] = await Promise.all([
    threadMessages(r.db, r.list.id, row.thread_id, ARCHIVE_PAGES.thread),
    summariesOf(r.db, r.list.id, row.parent_id === null ? [] : [row.parent_id]),
  ]);
  const threadTotal =
    thread.length < ARCHIVE_PAGES.thread
      ? thread.length
      : await countThread(r.db, r.list.id, row.thread_id);
  const html = row.content_html.trim();
  const tooLarge = html.length > ARCHIVE_PAGES.htmlChars;
  const plain = shownText(row.content_plain, r.spammode);
  return ArchiveMessagePage({
    place: r.place,
    message: showMessage(row, r.spammode),
    html: html === '' || tooLarge ? null : await r.sanitize(html),
    plain:
      tooLarge && plain.trim() === '' ? 'This message’s HTML is too large to show here.' : plain,
    parent: parents[0] ? showMessage(parents[0], r.spammode) : null,
    thread: thread.map((m) => showMessage(m, r.spammode)),
    threadTotal,
  });
}

/** A search of subject, sender and text; the newest matches first, below `?before=`. */
export async function searchPage(r: Reading): Promise<ReactElement> {
  const query = (r.query.q ?? '').trim();
  const terms = searchTerms(query);
  const size = ARCHIVE_PAGES.results;
  const ids =
    terms.length === 0
      ? []
      : await searchIds(r.db, r.list, terms, r.query.before ?? null, size + 1);
  const rows = await searchResults(r.db, r.list.id, ids.slice(0, size), ARCHIVE_SEARCH_CHARS);
  const q = encodeURIComponent(query);
  return ArchiveSearchPage({
    place: r.place,
    query: shownText(query, r.spammode),
    searched: terms.length > 0,
    results: rows.map((row) => showMessage(row, r.spammode)),
    lines: new Map(rows.map((row) => [row.id, shownText(snippetOf(row.plain, terms), r.spammode)])),
    newer: r.query.before === undefined ? null : `search?q=${q}`,
    older: ids.length > size ? `search?q=${q}&before=${rows[size - 1]?.id}` : null,
  });
}
