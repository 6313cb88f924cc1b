import type { ReactElement } from 'react';
import { ArchivePage, type ArchivePlace } from '../archive/archive-layout.ts';
import { Pager, When } from '../archive/archive-parts.ts';
import { archivePaths, linkFrom } from '../archive/archive-paths.ts';
import type { ShownMessage } from '../archive/archive-view.ts';
import { h } from '../kit/html.ts';

export interface ShownThread {
  first: ShownMessage;
  last: ShownMessage;
  messages: number;
}

/** The archive's front page: its threads, the newest begun first, a page at a time. */
export function ArchiveThreadsPage(props: {
  place: ArchivePlace;
  description: string;
  threads: readonly ShownThread[];
  newer: string | null;
  older: string | null;
}): ReactElement {
  const { place } = props;
  return h(
    ArchivePage,
    { place, title: 'Threads', inside: true, current: 'threads' },
    h('h1', null, `Threads of ${place.listName}`),
    props.description ? h('p', { className: 'muted' }, props.description) : null,
    props.threads.length === 0
      ? h('p', null, props.newer ? 'No older threads.' : 'No messages yet.')
      : h(
          'ol',
          { className: 'threads', 'aria-label': 'Threads, the newest first' },
          props.threads.map(({ first, last, messages }) =>
            h(
              'li',
              { key: first.threadId },
              h(
                'a',
                { href: linkFrom(place.base, archivePaths.thread(first.threadId)) },
                first.subject,
              ),
              h(
                'p',
                { className: 'meta' },
                `${first.sender} · `,
                h(When, { time: first.time }),
                messages > 1 ? ` · ${messages} messages, the last ` : null,
                messages > 1 ? h(When, { time: last.time }) : null,
              ),
            ),
          ),
        ),
    h(Pager, { newer: props.newer, older: props.older, label: 'More threads' }),
  );
}
