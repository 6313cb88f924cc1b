import type { ReactElement } from 'react';
import { h } from '../kit/html.ts';
import { archivePaths, linkFrom } from './archive-paths.ts';
import { isoDate, shownDate, type ShownMessage } from './archive-view.ts';

/** When a message was sent, readable and machine-readable. */
export function When(props: { time: number }): ReactElement {
  return h('time', { dateTime: isoDate(props.time) }, shownDate(props.time));
}

/** Messages as a list: each subject links to its page, with its sender and date. */
export function MessageList(props: {
  base: string;
  messages: readonly ShownMessage[];
  label: string;
  lines?: ReadonlyMap<number, string>;
}): ReactElement {
  return h(
    'ol',
    { className: 'messages', 'aria-label': props.label },
    props.messages.map((message) =>
      h(
        'li',
        { key: message.id },
        h('a', { href: linkFrom(props.base, archivePaths.message(message.id)) }, message.subject),
        h('p', { className: 'meta' }, `${message.sender} · `, h(When, { time: message.time })),
        props.lines?.has(message.id)
          ? h('p', { className: 'line' }, props.lines.get(message.id))
          : null,
      ),
    ),
  );
}

/** Links to the newer and older pages of a list, where there are some. */
export function Pager(props: {
  newer?: string | null;
  older?: string | null;
  label?: string;
}): ReactElement | null {
  if (!props.newer && !props.older) return null;
  return h(
    'nav',
    { className: 'pager', 'aria-label': props.label ?? 'More pages' },
    props.newer ? h('a', { href: props.newer, rel: 'prev' }, '← Newer') : h('span'),
    props.older ? h('a', { href: props.older, rel: 'next' }, 'Older →') : null,
  );
}

/** Replies nest this deep at most, so that a long exchange still fits a phone's width. */
const MAX_DEPTH = 6;

/**
 * A thread as a tree of replies (spec §2.5 `parent`), in the order the messages came; a reply
 * whose parent is not shown (deleted, or past the page's end) starts a branch of its own. The
 * message of the page, if any, is marked and not linked.
 */
export function ThreadTree(props: {
  base: string;
  messages: readonly ShownMessage[];
  current?: number;
  label: string;
}): ReactElement {
  const shown = new Set(props.messages.map((m) => m.id));
  const children = new Map<number | null, ShownMessage[]>();
  for (const message of props.messages) {
    const parent =
      message.parentId !== null && shown.has(message.parentId) ? message.parentId : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(message);
    else children.set(parent, [message]);
  }
  // Deeper replies line up under the deepest level instead of nesting further.
  const items = (message: ShownMessage, depth: number): ReactElement[] => {
    const replies = children.get(message.id) ?? [];
    const nested = depth < MAX_DEPTH;
    const entry =
      message.id === props.current
        ? h('strong', { 'aria-current': 'page' }, message.subject)
        : h('a', { href: linkFrom(props.base, archivePaths.message(message.id)) }, message.subject);
    const own = h(
      'li',
      { key: message.id },
      entry,
      h('span', { className: 'meta' }, ` ${message.sender} · `, h(When, { time: message.time })),
      nested && replies.length > 0
        ? h(
            'ul',
            null,
            replies.flatMap((reply) => items(reply, depth + 1)),
          )
        : null,
    );
    return nested ? [own] : [own, ...replies.flatMap((reply) => items(reply, depth))];
  };
  return h(
    'ul',
    { className: 'tree', 'aria-label': props.label },
    (children.get(null) ?? []).flatMap((m) => items(m, 1)),
  );
}
