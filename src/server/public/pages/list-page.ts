import type { ReactElement } from 'react';
import { opennessOf, type PublicList } from '../../members/public-list.ts';
import { AddressField, BotTraps, Button, Form, Notice } from '../kit/form.ts';
import { h } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';

/** Which form of the page just answered, and how. */
export interface FormAnswer {
  form: 'join' | 'leave' | 'manage';
  value?: string;
  error?: string;
  notice?: string;
}

/**
 * The list's public page (issue 25 item 1): its name and description, a form to join, one to
 * leave, and one to have the member's own page mailed. It never says whether an address is a
 * member (SECURITY.md 41).
 */
export function ListPage(props: {
  list: PublicList;
  started: string;
  answer?: FormAnswer;
}): ReactElement {
  const { list, answer } = props;
  const description = list.settings.description.trim();
  const join = opennessOf(list, 'join');
  const leave = opennessOf(list, 'leave');
  const field = (form: FormAnswer['form']) =>
    answer?.form === form ? { value: answer.value, error: answer.error } : {};
  const notice = (form: FormAnswer['form']) =>
    answer?.form === form && answer.notice ? h(Notice, null, answer.notice) : null;
  return h(
    Page,
    { title: `${list.name} · ${list.address}` },
    h('h1', null, list.name),
    h('p', { className: 'muted' }, list.address),
    description ? h('p', null, description) : null,
    // Spec §2.4 archive_enabled: the members' archive (issue 26), protected or not, has its door.
    list.settings.archive_enabled
      ? h('p', null, h('a', { href: 'archive/' }, 'Read the archive'))
      : null,
    h(
      'section',
      { 'aria-labelledby': 'join-heading' },
      h('h2', { id: 'join-heading' }, 'Join'),
      notice('join'),
      join === 'closed'
        ? h('p', null, 'This list does not take new members on its own request.')
        : h(
            Form,
            { action: 'join', label: 'Join the list' },
            h('p', null,
              join === 'open+confirm'
                ? 'We mail you a link to confirm; then a moderator approves your request.'
                : 'We mail you a link to confirm that the address is yours.'),
            h(AddressField, { id: 'join-email', label: 'Your email address', ...field('join') }),
            h(BotTraps, { started: props.started }),
            h('div', { className: 'actions' }, h(Button, null, 'Join')),
          ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'leave-heading' },
      h('h2', { id: 'leave-heading' }, 'Leave'),
      notice('leave'),
      leave === 'closed'
        ? h('p', null, 'Members of this list cannot leave on their own: ask its administrators.')
        : h(
            Form,
            { action: 'leave', label: 'Leave the list' },
            h(AddressField, { id: 'leave-email', label: 'The address you receive the list at', ...field('leave') }),
            h(BotTraps, { started: props.started }),
            h('div', { className: 'actions' }, h(Button, { kind: 'secondary' }, 'Leave')),
          ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'manage-heading' },
      h('h2', { id: 'manage-heading' }, 'Your membership'),
      notice('manage'),
      h(
        Form,
        { action: 'manage', label: 'Mail me a link to my membership' },
        h('p', null, 'Choose a daily digest, pause your mail or leave, on a page of your own. We mail its link to a member’s address.'),
        h(AddressField, { id: 'manage-email', label: 'The address you receive the list at', ...field('manage') }),
        h(BotTraps, { started: props.started }),
        h('div', { className: 'actions' }, h(Button, { kind: 'secondary' }, 'Mail me the link')),
      ),
    ),
  );
}
