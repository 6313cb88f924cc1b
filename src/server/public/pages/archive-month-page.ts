import type { ReactElement } from 'react';
import { ArchivePage, type ArchivePlace } from '../archive/archive-layout.ts';
import { MessageList, Pager } from '../archive/archive-parts.ts';
import { archivePaths, linkFrom } from '../archive/archive-paths.ts';
import { monthName, type ShownMessage } from '../archive/archive-view.ts';
import { h } from '../kit/html.ts';

/** One month's messages, the newest first, a page at a time. */
export function ArchiveMonthPage(props: {
  place: ArchivePlace;
  month: string;
  messages: readonly ShownMessage[];
  count: number;
  page: number;
  pages: number;
  newer: string | null;
  older: string | null;
}): ReactElement {
  const { place } = props;
  const name = monthName(props.month);
  return h(
    ArchivePage,
    { place, title: name, inside: true, current: 'months' },
    h('h1', null, name),
    h(
      'p',
      { className: 'muted' },
      `${props.count} ${props.count === 1 ? 'message' : 'messages'}`,
      props.pages > 1 ? `; page ${props.page} of ${props.pages}.` : '.',
      ' ',
      h('a', { href: linkFrom(place.base, archivePaths.months) }, 'All months'),
    ),
    props.messages.length === 0
      ? h('p', null, 'No messages on this page.')
      : h(MessageList, {
          base: place.base,
          messages: props.messages,
          label: `Messages of ${name}`,
        }),
    h(Pager, { newer: props.newer, older: props.older }),
  );
}
