import type { ReactElement } from 'react';
import type { PublicList } from '../../members/public-list.ts';
import { Button, Form } from '../kit/form.ts';
import { h } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';

/**
 * A confirmation link's page: the link's GET shows what it would do and a button; only the POST
 * acts (SECURITY.md 41: mail scanners follow links, people press buttons).
 */
export function ConfirmPage(props: {
  list: PublicList;
  kind: 'join' | 'leave';
  address: string;
}): ReactElement {
  const joining = props.kind === 'join';
  const title = joining ? `Join ${props.list.name}` : `Leave ${props.list.name}`;
  return h(
    Page,
    { title, personal: true },
    h('h1', null, title),
    h(
      'p',
      null,
      joining ? 'Confirm that ' : 'Confirm that ',
      h('strong', null, props.address),
      joining ? ` joins the list ${props.list.address}.` : ` leaves the list ${props.list.address}.`,
    ),
    h(
      Form,
      { action: '', label: title },
      h('div', { className: 'actions' }, h(Button, null, joining ? 'Join the list' : 'Leave the list')),
    ),
  );
}
