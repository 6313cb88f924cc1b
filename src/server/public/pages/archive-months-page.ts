import type { ReactElement } from 'react';
import { ArchivePage, type ArchivePlace } from '../archive/archive-layout.ts';
import { Pager } from '../archive/archive-parts.ts';
import { archivePaths, linkFrom } from '../archive/archive-paths.ts';
import { monthName } from '../archive/archive-view.ts';
import { h } from '../kit/html.ts';

/** The months with messages, the newest first, each with its count. */
export function ArchiveMonthsPage(props: {
  place: ArchivePlace;
  months: readonly { month: string; messages: number }[];
  newer: string | null;
  older: string | null;
}): ReactElement {
  const { place } = props;
  return h(
    ArchivePage,
    { place, title: 'Months', inside: true, current: 'months' },
    h('h1', null, 'Months'),
    h('p', { className: 'muted' }, 'Months are in UTC.'),
    props.months.length === 0
      ? h('p', null, 'No messages yet.')
      : h(
          'ol',
          { className: 'months', 'aria-label': 'Months, the newest first' },
          props.months.map(({ month, messages }) =>
            h(
              'li',
              { key: month },
              h('a', { href: linkFrom(place.base, archivePaths.month(month)) }, monthName(month)),
              ` · ${messages} ${messages === 1 ? 'message' : 'messages'}`,
            ),
          ),
        ),
    h(Pager, { newer: props.newer, older: props.older, label: 'More months' }),
  );
}
