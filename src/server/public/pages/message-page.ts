import type { ReactElement } from 'react';
import { h, type Children } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';

/** A page that says one thing: what happened, a link that is no (longer) valid, an error. */
export function MessagePage(props: {
  title: string;
  children?: Children;
  back?: { href: string; label: string };
  personal?: boolean;
}): ReactElement {
  return h(
    Page,
    { title: props.title, personal: props.personal },
    h('h1', null, props.title),
    props.children,
    props.back ? h('p', null, h('a', { href: props.back.href }, props.back.label)) : null,
  );
}
