import type { ReactElement } from 'react';
import { h, type Children } from './html.ts';

/** A POST form to `action` (relative to the page), with no script. */
export function Form(props: { action: string; children?: Children; label?: string }): ReactElement {
  return h(
    'form',
    { method: 'post', action: props.action, 'aria-label': props.label },
    props.children,
  );
}

/** A labelled address field; its error, if any, is read with it (aria-describedby). */
export function AddressField(props: {
  id: string;
  label: string;
  value?: string;
  error?: string | undefined;
}): ReactElement {
  const errorId = `${props.id}-error`;
  return h(
    'div',
    { className: 'field' },
    h('label', { htmlFor: props.id }, props.label),
    h('input', {
      id: props.id,
      name: 'email',
      type: 'email',
      inputMode: 'email',
      autoComplete: 'email',
      autoCapitalize: 'none',
      spellCheck: false,
      required: true,
      maxLength: 254,
      defaultValue: props.value,
      'aria-invalid': props.error ? true : undefined,
      'aria-describedby': props.error ? errorId : undefined,
    }),
    props.error ? h('p', { id: errorId, className: 'error', role: 'alert' }, props.error) : null,
  );
}

/**
 * The bot traps of a public form (SECURITY.md 43): a field people never see or fill, and the
 * signed moment the form was shown (a bot posts at once; a person takes seconds).
 */
export function BotTraps(props: { started: string }): ReactElement {
  return h(
    'div',
    null,
    h('input', { type: 'hidden', name: 'started', value: props.started }),
    h(
      'div',
      { className: 'trap', 'aria-hidden': true },
      h('label', { htmlFor: 'website' }, 'Leave this field empty'),
      h('input', { id: 'website', name: 'website', type: 'text', tabIndex: -1, autoComplete: 'off' }),
    ),
  );
}

export function Button(props: { children?: Children; kind?: 'primary' | 'secondary' }): ReactElement {
  return h('button', { type: 'submit', className: props.kind ?? 'primary' }, props.children);
}

/** What just happened, said first and read out (role status) after a form was sent. */
export function Notice(props: { children?: Children; tone?: 'ok' | 'error' }): ReactElement {
  return h(
    'p',
    { className: props.tone === 'error' ? 'error' : 'notice', role: props.tone === 'error' ? 'alert' : 'status' },
    props.children,
  );
}
