import type { ReactElement } from 'react';
import type { PublicList } from '../../members/public-list.ts';
import { Button, Form } from '../kit/form.ts';
import { h } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';

/**
 * The GET of a delivery's List-Unsubscribe URL (RFC 8058 §3.2: the URL must not act on GET): a
 * button that sends the same POST a mail program's one-click sends.
 */
export function OneClickPage(props: { list: PublicList; address: string }): ReactElement {
  const title = `Leave ${props.list.name}`;
  return h(
    Page,
    { title, personal: true },
    h('h1', null, title),
    h(
      'p',
      null,
      h('strong', null, props.address),
      ` will receive no more mail from ${props.list.address}.`,
    ),
    h(
      Form,
      { action: '', label: title },
      h('input', { type: 'hidden', name: 'List-Unsubscribe', value: 'One-Click' }),
      h('div', { className: 'actions' }, h(Button, null, 'Leave the list')),
    ),
  );
}
