import type { ReactElement } from 'react';
import { h, type Children } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';
import { archivePaths, linkFrom } from './archive-paths.ts';

export const ARCHIVE_STYLESHEET_PATH = '/l/_/archive.css';

/** What every archive page knows of where it is. */
export interface ArchivePlace {
  /** The list's name (never its address: spec §2.4 `archive_spammode`). */
  listName: string;
  /** The way back to the archive's root from this page (archive-paths.ts). */
  base: string;
  /** A protected archive's pages are kept out of search engines. */
  personal: boolean;
  /** The reader came in with a pass (archive-pass.ts), which the header offers to end. */
  closable: boolean;
}

/**
 * An archive page: the public pages' look (kit/pages.css) with a wider column for messages, no
 * script, no referrer sent on; a header with the archive's name and, once the reader is in, its
 * ways around (threads, months, search). A door shows no way around: strangers see nothing.
 */
export function ArchivePage(props: {
  place: ArchivePlace;
  title: string;
  /** The reader may read the archive: the header offers its pages. */
  inside: boolean;
  current?: 'threads' | 'months' | 'search';
  query?: string;
  children?: Children;
}): ReactElement {
  const { place } = props;
  const header = h(
    'header',
    { className: 'archive-header' },
    h('p', { className: 'archive-name' }, `${place.listName} archive`),
    props.inside
      ? h(ArchiveNav, { base: place.base, current: props.current, query: props.query })
      : null,
    props.inside && place.closable
      ? h(
          'form',
          {
            method: 'post',
            action: linkFrom(place.base, archivePaths.close),
            className: 'archive-close',
          },
          h('button', { type: 'submit', className: 'secondary' }, 'Close the archive'),
        )
      : null,
  );
  return h(
    Page,
    {
      title: `${props.title} · ${place.listName} archive`,
      personal: place.personal,
      part: { stylesheet: ARCHIVE_STYLESHEET_PATH, className: 'archive', header },
    },
    props.children,
  );
}

function ArchiveNav(props: {
  base: string;
  current?: string | undefined;
  query?: string | undefined;
}) {
  const item = (key: string, path: string, label: string) =>
    h(
      'li',
      { key },
      h(
        'a',
        {
          href: linkFrom(props.base, path),
          'aria-current': props.current === key ? 'page' : undefined,
        },
        label,
      ),
    );
  return h(
    'nav',
    { 'aria-label': 'Archive', className: 'archive-nav' },
    h(
      'ul',
      null,
      item('threads', archivePaths.threads, 'Threads'),
      item('months', archivePaths.months, 'Months'),
    ),
    h(
      'form',
      {
        method: 'get',
        action: linkFrom(props.base, archivePaths.search),
        role: 'search',
        className: 'archive-search',
      },
      h('label', { htmlFor: 'archive-q', className: 'visually-hidden' }, 'Search the archive'),
      h('input', {
        id: 'archive-q',
        name: 'q',
        type: 'search',
        maxLength: 200,
        defaultValue: props.query,
        placeholder: 'Subject, sender, words',
      }),
      h('button', { type: 'submit', className: 'secondary' }, 'Search'),
    ),
  );
}
