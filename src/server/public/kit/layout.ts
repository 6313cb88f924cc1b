import type { ReactElement } from 'react';
import { h, type Children } from './html.ts';

export const STYLESHEET_PATH = '/l/_/pages.css';

/**
 * Every public page: readable at 320 px (one column, the viewport set), light or dark as the
 * reader's system is, labelled landmarks, and no referrer sent on (a token in the URL stays here).
 */
export function Page(props: {
  title: string;
  /** Pages that carry a token in their URL are kept out of search engines. */
  personal?: boolean;
  /** Another part's stylesheet in place of the public pages' (the OAuth pages, oauth/pages.css). */
  stylesheet?: string;
  /** A part with a look of its own (the archive): its stylesheet, its body's class, its header. */
  part?: { stylesheet: string; className: string; header: Children };
  children?: Children;
}): ReactElement {
  return h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('meta', { name: 'referrer', content: 'no-referrer' }),
      props.personal ? h('meta', { name: 'robots', content: 'noindex, nofollow' }) : null,
      h('title', null, props.title),
      h('link', { rel: 'stylesheet', href: props.stylesheet ?? STYLESHEET_PATH }),
      props.part ? h('link', { rel: 'stylesheet', href: props.part.stylesheet }) : null,
    ),
    h('body', { className: props.part?.className }, props.part?.header, h('main', null, props.children)),
  );
}
