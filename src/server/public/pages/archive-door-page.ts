import type { ReactElement } from 'react';
import type { DoorWays } from '../archive/archive-access.ts';
import { ArchivePage, type ArchivePlace } from '../archive/archive-layout.ts';
import { archivePaths, linkFrom } from '../archive/archive-paths.ts';
import { AddressField, BotTraps, Button, Form, Notice } from '../kit/form.ts';
import { h } from '../kit/html.ts';

/** What the door says after one of its forms was sent. */
export interface DoorAnswer {
  form: 'member' | 'password';
  value?: string;
  error?: string;
  notice?: string;
}

/**
 * A protected archive's door (spec §2.4 `archive_protected`): nothing of the archive, not even how
 * many messages it holds (SECURITY.md 48); a member asks for a link by mail (`archive_memberview`),
 * which is answered the same whether or not the address is a member (SECURITY.md 41); whoever has
 * the password (`archive_password`) types it. `back` is where the reader was going, kept for after.
 */
export function ArchiveDoorPage(props: {
  place: ArchivePlace;
  ways: DoorWays;
  started: string;
  back: string;
  answer?: DoorAnswer;
}): ReactElement {
  const { place, ways, answer } = props;
  const shown = (form: DoorAnswer['form']) => (answer?.form === form ? answer : undefined);
  const passwordError = shown('password')?.error;
  return h(
    ArchivePage,
    { place: { ...place, personal: true }, title: 'Members only', inside: false },
    h('h1', null, `The archive of ${place.listName}`),
    h(
      'p',
      null,
      ways.members || ways.password
        ? 'This archive is open to the list’s members only.'
        : 'This archive is closed: only the list’s administrators read it.',
    ),
    ways.members
      ? h(
          'section',
          { 'aria-labelledby': 'member-heading' },
          h('h2', { id: 'member-heading' }, 'Members'),
          shown('member')?.notice ? h(Notice, null, shown('member')?.notice) : null,
          h(
            Form,
            {
              action: linkFrom(place.base, archivePaths.access),
              label: 'Mail me a link to the archive',
            },
            h('p', null, 'We mail a link that opens the archive to a member’s address.'),
            h(AddressField, {
              id: 'member-email',
              label: 'The address you receive the list at',
              value: shown('member')?.value,
              error: shown('member')?.error,
            }),
            h(BotTraps, { started: props.started }),
            h('div', { className: 'actions' }, h(Button, null, 'Mail me the link')),
          ),
        )
      : null,
    ways.password
      ? h(
          'section',
          { 'aria-labelledby': 'password-heading' },
          h('h2', { id: 'password-heading' }, 'Password'),
          h(
            Form,
            {
              action: linkFrom(place.base, archivePaths.password),
              label: 'Open the archive with its password',
            },
            h('input', { type: 'hidden', name: 'back', value: props.back }),
            h(
              'div',
              { className: 'field' },
              h('label', { htmlFor: 'archive-password' }, 'The archive’s password'),
              h('input', {
                id: 'archive-password',
                name: 'password',
                type: 'password',
                autoComplete: 'current-password',
                required: true,
                maxLength: 1000,
                'aria-invalid': passwordError ? true : undefined,
                'aria-describedby': passwordError ? 'archive-password-error' : undefined,
              }),
              passwordError
                ? h(
                    'p',
                    { id: 'archive-password-error', className: 'error', role: 'alert' },
                    passwordError,
                  )
                : null,
            ),
            h(
              'div',
              { className: 'actions' },
              h(Button, { kind: ways.members ? 'secondary' : 'primary' }, 'Open the archive'),
            ),
          ),
        )
      : null,
  );
}

/**
 * The GET of a mailed archive link: a button, since the link acts once and mail scanners follow
 * links (SECURITY.md 41); the POST opens the archive in this browser.
 */
export function ArchiveOpenPage(props: { place: ArchivePlace }): ReactElement {
  return h(
    ArchivePage,
    { place: { ...props.place, personal: true }, title: 'Open the archive', inside: false },
    h('h1', null, `Open the archive of ${props.place.listName}`),
    h('p', null, 'The archive then stays open in this browser for a month, or until you close it.'),
    h(
      Form,
      { action: '', label: 'Open the archive' },
      h('div', { className: 'actions' }, h(Button, null, 'Open the archive')),
    ),
  );
}
