import type { ReactElement } from 'react';
import { h } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';

export interface IndexedList {
  name: string;
  address: string;
  description: string;
  /** The list's page, and its archive's when it has one open to read. */
  page: string;
  archive: string | null;
  /** The archive opens to members (or a password) only. */
  protectedArchive: boolean;
}

/**
 * The public index of lists at `/l/` (spec §2.4 `archive_index_noshow` leaves a list out): every
 * list with a public page, by domain, a page at a time.
 */
export function ListsIndexPage(props: {
  domains: readonly { domain: string; lists: readonly IndexedList[] }[];
  more: string | null;
}): ReactElement {
  return h(
    Page,
    { title: 'Mailing lists' },
    h('h1', null, 'Mailing lists'),
    props.domains.length === 0 ? h('p', null, 'No list has a public page.') : null,
    props.domains.map(({ domain, lists }) =>
      h(
        'section',
        { key: domain, 'aria-labelledby': `domain-${domain}` },
        h('h2', { id: `domain-${domain}` }, domain),
        h(
          'ul',
          { className: 'lists-index' },
          lists.map((list) =>
            h(
              'li',
              { key: list.address },
              h('a', { href: list.page }, list.name),
              h('span', { className: 'muted' }, ` ${list.address}`),
              list.description ? h('div', null, list.description) : null,
              list.archive
                ? h(
                    'div',
                    null,
                    h('a', { href: list.archive }, `${list.name} archive`),
                    list.protectedArchive
                      ? h('span', { className: 'muted' }, ' (members only)')
                      : null,
                  )
                : null,
            ),
          ),
        ),
      ),
    ),
    props.more ? h('p', null, h('a', { href: props.more }, 'More lists')) : null,
  );
}
