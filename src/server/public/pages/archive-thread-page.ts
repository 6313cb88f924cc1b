import type { ReactElement } from 'react';
import { ArchivePage, type ArchivePlace } from '../archive/archive-layout.ts';
import { ThreadTree } from '../archive/archive-parts.ts';
import type { ShownMessage } from '../archive/archive-view.ts';
import { h } from '../kit/html.ts';

/** A thread's messages as a tree of replies; a very long thread shows its first ones. */
export function ArchiveThreadPage(props: {
  place: ArchivePlace;
  messages: readonly ShownMessage[];
  total: number;
}): ReactElement {
  const { place, messages } = props;
  const subject = messages[0]?.subject ?? '(no subject)';
  return h(
    ArchivePage,
    { place, title: subject, inside: true, current: 'threads' },
    h('h1', null, subject),
    h(
      'p',
      { className: 'muted' },
      props.total > messages.length
        ? `The first ${messages.length} of this thread's ${props.total} messages.`
        : `${props.total} ${props.total === 1 ? 'message' : 'messages'}.`,
    ),
    h(ThreadTree, { base: place.base, messages, label: 'The thread' }),
  );
}
