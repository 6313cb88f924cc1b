import type { ReactElement } from 'react';
import { ArchivePage, type ArchivePlace } from '../archive/archive-layout.ts';
import { ThreadTree, When } from '../archive/archive-parts.ts';
import { archivePaths, linkFrom } from '../archive/archive-paths.ts';
import type { ShownMessage } from '../archive/archive-view.ts';
import { h } from '../kit/html.ts';

/**
 * One message on its own page, with its thread around it. Its HTML, sanitized (SECURITY.md 12,
 * 48), is shown in an `<iframe sandbox srcdoc>` that allows nothing: no script, no same origin, no
 * form, no popup; the plain text is the page's own text beside it.
 */
export function ArchiveMessagePage(props: {
  place: ArchivePlace;
  message: ShownMessage;
  /** Sanitized HTML, or null when the message has none to show. */
  html: string | null;
  plain: string;
  parent: ShownMessage | null;
  thread: readonly ShownMessage[];
  threadTotal: number;
}): ReactElement {
  const { place, message } = props;
  const plain = h('div', { className: 'plain' }, props.plain);
  return h(
    ArchivePage,
    { place, title: message.subject, inside: true, current: 'threads' },
    h('h1', null, message.subject),
    h(
      'dl',
      { className: 'headers' },
      h('dt', null, 'From'),
      h(
        'dd',
        null,
        message.sender === message.address
          ? message.address
          : `${message.sender} <${message.address}>`,
      ),
      h('dt', null, 'Date'),
      h('dd', null, h(When, { time: message.time })),
      props.parent ? h('dt', null, 'In reply to') : null,
      props.parent
        ? h(
            'dd',
            null,
            h(
              'a',
              { href: linkFrom(place.base, archivePaths.message(props.parent.id)) },
              props.parent.subject,
            ),
          )
        : null,
    ),
    props.html === null
      ? plain
      : [
          h('iframe', {
            key: 'html',
            className: 'message-frame',
            sandbox: '',
            srcDoc: props.html,
            title: `The message “${message.subject}”`,
            referrerPolicy: 'no-referrer',
          }),
          h(
            'details',
            { key: 'plain', className: 'plain-text' },
            h('summary', null, 'Plain text'),
            plain,
          ),
        ],
    h(
      'section',
      { 'aria-labelledby': 'thread-heading' },
      h('h2', { id: 'thread-heading' }, 'The thread'),
      props.threadTotal > props.thread.length
        ? h(
            'p',
            { className: 'muted' },
            `The first ${props.thread.length} of its ${props.threadTotal} messages. `,
            h(
              'a',
              { href: linkFrom(place.base, archivePaths.thread(message.threadId)) },
              'The whole thread',
            ),
          )
        : null,
      h(ThreadTree, {
        base: place.base,
        messages: props.thread,
        current: message.id,
        label: 'The thread',
      }),
    ),
  );
}
