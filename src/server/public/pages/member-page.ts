import type { ReactElement } from 'react';
import type { MemberOfList } from '../../repositories/member-directory.repository.ts';
import { opennessOf, type PublicList } from '../../members/public-list.ts';
import { Button, Form, Notice } from '../kit/form.ts';
import { h } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';

export type MemberAction = 'digest-on' | 'digest-off' | 'pause' | 'resume' | 'leave';
export const MEMBER_ACTIONS: readonly MemberAction[] = ['digest-on', 'digest-off', 'pause', 'resume', 'leave'];

function actionForm(action: MemberAction, label: string, kind: 'primary' | 'secondary' = 'secondary') {
  return h(
    Form,
    { action: '', label },
    h('input', { type: 'hidden', name: 'action', value: action }),
    h(Button, { kind }, label),
  );
}

/**
 * The member's own page (issue 25 item 6), reached by a personal link that expires: a digest
 * (spec §2.3 `digest`), a pause (§2.2 `paused`, which holds for every list of the address), leaving.
 */
export function MemberPage(props: {
  list: PublicList;
  member: MemberOfList;
  notice?: string;
  listPage: string;
}): ReactElement {
  const { list, member } = props;
  const title = `Your membership of ${list.name}`;
  const digest = member.membershipDigest === null ? member.emailDigest : member.membershipDigest === 1;
  if (member.membershipId === null)
    return h(
      Page,
      { title, personal: true },
      h('h1', null, title),
      props.notice ? h(Notice, null, props.notice) : null,
      h('p', null, h('strong', null, member.email), ` is not a member of ${list.address}.`),
      h('p', null, h('a', { href: props.listPage }, 'Join again on the list’s page')),
    );
  return h(
    Page,
    { title, personal: true },
    h('h1', null, title),
    props.notice ? h(Notice, null, props.notice) : null,
    h(
      'dl',
      null,
      h('dt', null, 'Address'),
      h('dd', null, member.email),
      h('dt', null, 'List'),
      h('dd', null, list.address),
      h('dt', null, 'Mail'),
      h('dd', null, member.paused ? 'Paused' : digest ? 'One daily digest' : 'Each message as it is sent'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'digest-heading' },
      h('h2', { id: 'digest-heading' }, 'Digest'),
      digest
        ? actionForm('digest-off', 'Send each message as it is sent')
        : actionForm('digest-on', 'Send one daily digest instead'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'pause-heading' },
      h('h2', { id: 'pause-heading' }, 'Pause'),
      h('p', null, 'A pause stops mail to this address from every list it is on, until you resume it.'),
      member.paused ? actionForm('resume', 'Resume my mail') : actionForm('pause', 'Pause my mail'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'leave-heading' },
      h('h2', { id: 'leave-heading' }, 'Leave'),
      opennessOf(list, 'leave') === 'closed'
        ? h('p', null, 'Members of this list cannot leave on their own: ask its administrators.')
        : actionForm('leave', 'Leave the list'),
    ),
  );
}
