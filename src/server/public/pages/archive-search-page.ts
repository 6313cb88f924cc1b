import type { ReactElement } from 'react';
import { ArchivePage, type ArchivePlace } from '../archive/archive-layout.ts';
import { MessageList, Pager } from '../archive/archive-parts.ts';
import type { ShownMessage } from '../archive/archive-view.ts';
import { Notice } from '../kit/form.ts';
import { h } from '../kit/html.ts';

/**
 * A search of the archive (subject, sender, text): the newest matches first, each with the line
 * where it matched, a page at a time. The form is the header's.
 */
export function ArchiveSearchPage(props: {
  place: ArchivePlace;
  /** What the reader typed, as the page may show it (spammode hides addresses in it too). */
  query: string;
  searched: boolean;
  results: readonly ShownMessage[];
  lines: ReadonlyMap<number, string>;
  newer: string | null;
  older: string | null;
}): ReactElement {
  const { place } = props;
  const title = props.query ? `Search: ${props.query}` : 'Search';
  return h(
    ArchivePage,
    { place, title, inside: true, current: 'search', query: props.query },
    h('h1', null, props.query ? `Messages with “${props.query}”` : 'Search the archive'),
    !props.searched
      ? props.query
        ? h(Notice, { tone: 'error' }, 'Type a word to search for: letters or digits.')
        : h(
            'p',
            null,
            'Type words of a subject, a sender or a message in the search field above. Every word must match; a word of three letters or more also finds the words it begins.',
          )
      : props.results.length === 0
        ? h(
            'p',
            { role: 'status' },
            props.newer ? 'No older messages match.' : 'No message matches.',
          )
        : h(MessageList, {
            base: place.base,
            messages: props.results,
            lines: props.lines,
            label: 'Messages that match, the newest first',
          }),
    h(Pager, { newer: props.newer, older: props.older, label: 'More results' }),
  );
}
