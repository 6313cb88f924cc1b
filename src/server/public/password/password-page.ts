import type { ReactElement } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../../api/constants.ts';
import { Button, Form, Notice } from '../kit/form.ts';
import { h } from '../kit/html.ts';
import { Page } from '../kit/layout.ts';

/** Which of the page's two fields a refusal is about. */
export type PasswordProblem = { field: 'password' | 'confirm'; message: string };

const TITLE = 'Choose your password';
const RULE = `At least ${PASSWORD_MIN_LENGTH} characters.`;

/**
 * The page of a set-password link (issue 27 item 4): the link's GET shows it, only its POST sets
 * the password (SECURITY.md 41). The username rides along, unsent, for password managers.
 */
export function SetPasswordPage(props: {
  username: string;
  problem?: PasswordProblem;
}): ReactElement {
  const { problem } = props;
  return h(
    Page,
    { title: TITLE, personal: true },
    h('h1', null, TITLE),
    h(
      'p',
      null,
      'For the administrator ',
      h('strong', null, props.username),
      '. You sign in to the dashboard with this username and the password you choose here.',
    ),
    // Read out when the page comes back refused, and with the field it is about.
    problem ? h('p', { id: 'problem', className: 'error', role: 'alert' }, problem.message) : null,
    h(
      Form,
      { action: '', label: TITLE },
      // No name: never sent, only read by password managers to file the new password under.
      h('input', {
        type: 'email',
        autoComplete: 'username',
        value: props.username,
        readOnly: true,
        hidden: true,
      }),
      h(PasswordField, {
        id: 'password',
        label: 'New password',
        hint: RULE,
        error: problem?.field === 'password' ? problem.message : undefined,
      }),
      h(PasswordField, {
        id: 'confirm',
        label: 'The same password again',
        error: problem?.field === 'confirm' ? problem.message : undefined,
      }),
      h('div', { className: 'actions' }, h(Button, null, 'Set my password')),
    ),
  );
}

/** A labelled new-password field; its rule and its error are read with it (aria-describedby). */
function PasswordField(props: {
  id: string;
  label: string;
  hint?: string;
  error: string | undefined;
}): ReactElement {
  const hintId = `${props.id}-hint`;
  const described = [props.hint ? hintId : '', props.error ? 'problem' : ''].filter(Boolean);
  return h(
    'div',
    { className: 'field' },
    h('label', { htmlFor: props.id }, props.label),
    h('input', {
      id: props.id,
      name: props.id,
      type: 'password',
      autoComplete: 'new-password',
      required: true,
      minLength: PASSWORD_MIN_LENGTH,
      'aria-invalid': props.error ? true : undefined,
      'aria-describedby': described.length > 0 ? described.join(' ') : undefined,
    }),
    props.hint ? h('p', { id: hintId, className: 'muted' }, props.hint) : null,
  );
}

/** After the POST: the password is set, and where to sign in with it. */
export function PasswordSetPage(props: { username: string; signInUrl: string }): ReactElement {
  const title = 'Your password is set';
  return h(
    Page,
    { title, personal: true },
    h('h1', null, title),
    h(Notice, null, 'Any other sign-in of this administrator has ended.'),
    h(
      'p',
      null,
      'Sign in as ',
      h('strong', null, props.username),
      ' with your new password on the dashboard:',
    ),
    h('p', null, h('a', { href: props.signInUrl }, `Sign in at ${props.signInUrl}`)),
  );
}

/** A used, expired or forged link: nothing was changed. */
export function PasswordLinkInvalidPage(): ReactElement {
  const title = 'This link does not work';
  return h(
    Page,
    { title, personal: true },
    h('h1', null, title),
    h(
      'p',
      null,
      'It was used already, it has expired, or part of it is missing; nothing was changed. Ask an administrator of your account for a new way in.',
    ),
  );
}
