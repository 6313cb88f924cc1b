import fs from 'node:fs';
import type { ReactElement } from 'react';
import { h, renderDocument, type Children } from '../public/kit/html.ts';
import { Page } from '../public/kit/layout.ts';
import { OAUTH_PAGE_PATHS } from './paths.ts';
import { SCOPE_DESCRIPTIONS, type Scope } from './scopes.ts';

/**
 * The authorization server's pages, made with the public pages' kit (public/kit/): escaped by
 * construction, labelled fields, no script and no inline style (the page CSP of SECURITY.md 24
 * forbids both); the look comes from this folder's pages.css.
 */
export const PAGES_CSS = fs.readFileSync(new URL('./pages.css', import.meta.url), 'utf8');

type Params = readonly (readonly [string, string])[];

function OAuthPage(props: { title: string; children?: Children }): string {
  return renderDocument(
    Page({
      title: `${props.title} · Listkeeper`,
      stylesheet: OAUTH_PAGE_PATHS.stylesheet,
      children: props.children,
    }),
  );
}

function PostForm(props: {
  action: string;
  csrfToken: string;
  params?: Params;
  children?: Children;
}): ReactElement {
  return h(
    'form',
    { method: 'post', action: props.action },
    [['csrf_token', props.csrfToken] as const, ...(props.params ?? [])].map(
      ([name, value], index) => h('input', { key: index, type: 'hidden', name, value }),
    ),
    props.children,
  );
}

function Actions(props: { children?: Children }): ReactElement {
  return h('div', { className: 'actions' }, props.children);
}

export function loginPage(input: {
  clientName: string;
  params: Params;
  csrfToken: string;
  username?: string;
  error?: string;
}): string {
  const described = input.error ? 'form-error' : undefined;
  return OAuthPage({
    title: 'Sign in',
    children: [
      h('h1', { key: 'h' }, 'Sign in to Listkeeper'),
      h(
        'p',
        { key: 'p' },
        h('strong', null, input.clientName),
        ' asks to use your Listkeeper account. Sign in to continue.',
      ),
      input.error
        ? h('p', { key: 'e', className: 'error', role: 'alert', id: 'form-error' }, input.error)
        : null,
      h(
        PostForm,
        {
          key: 'f',
          action: OAUTH_PAGE_PATHS.login,
          csrfToken: input.csrfToken,
          params: input.params,
        },
        h('label', { htmlFor: 'username' }, 'Username'),
        h('input', {
          id: 'username',
          name: 'username',
          type: 'text',
          inputMode: 'email',
          autoComplete: 'username',
          autoCapitalize: 'none',
          spellCheck: false,
          required: true,
          autoFocus: true,
          defaultValue: input.username ?? '',
          'aria-describedby': described,
        }),
        h('label', { htmlFor: 'password' }, 'Password'),
        h('input', {
          id: 'password',
          name: 'password',
          type: 'password',
          autoComplete: 'current-password',
          required: true,
          'aria-describedby': described,
        }),
        h(Actions, null, h('button', { type: 'submit', className: 'primary' }, 'Sign in')),
      ),
    ],
  });
}

function Scopes(props: { scopes: readonly Scope[] }): ReactElement {
  return h(
    'ul',
    { className: 'scopes' },
    props.scopes.map((scope) =>
      h(
        'li',
        { key: scope },
        SCOPE_DESCRIPTIONS[scope],
        ' ',
        h('span', { className: 'muted' }, `(${scope})`),
      ),
    ),
  );
}

export function consentPage(input: {
  clientName: string;
  username: string;
  grantable: readonly Scope[];
  withheld: readonly Scope[];
  params: Params;
  csrfToken: string;
}): string {
  const client = h('strong', null, input.clientName);
  const decision =
    input.grantable.length === 0
      ? [
          h('p', { key: 'p' }, 'Your permissions allow none of what ', client, ' asks for.'),
          h(
            Actions,
            { key: 'a' },
            h(
              'button',
              { type: 'submit', name: 'decision', value: 'deny', className: 'primary' },
              `Return to ${input.clientName}`,
            ),
          ),
        ]
      : [
          h('p', { key: 'p' }, client, ' will be able to:'),
          h(Scopes, { key: 's', scopes: input.grantable }),
          input.withheld.length === 0
            ? null
            : [
                h(
                  'p',
                  { key: 'wp' },
                  'It also asks for the following, which your permissions do not allow; it will not get them:',
                ),
                h(Scopes, { key: 'ws', scopes: input.withheld }),
              ],
          h(
            Actions,
            { key: 'a' },
            h(
              'button',
              { type: 'submit', name: 'decision', value: 'allow', className: 'primary' },
              'Allow',
            ),
            ' ',
            h(
              'button',
              { type: 'submit', name: 'decision', value: 'deny', className: 'secondary' },
              'Deny',
            ),
          ),
        ];
  return OAuthPage({
    title: 'Allow access?',
    children: [
      h('h1', { key: 'h' }, `Allow ${input.clientName} to use your account?`),
      h(
        PostForm,
        {
          key: 'f',
          action: OAUTH_PAGE_PATHS.consent,
          csrfToken: input.csrfToken,
          params: input.params,
        },
        decision,
      ),
      h(
        PostForm,
        {
          key: 'o',
          action: OAUTH_PAGE_PATHS.logout,
          csrfToken: input.csrfToken,
          params: input.params,
        },
        h(
          'p',
          { className: 'muted' },
          `Signed in as ${input.username}. `,
          h('button', { type: 'submit', className: 'link' }, 'Not you? Sign out'),
        ),
      ),
    ],
  });
}

export function signOutPage(input: { username: string | null; csrfToken: string | null }): string {
  if (input.username === null || input.csrfToken === null) {
    return OAuthPage({
      title: 'Sign out',
      children: [
        h('h1', { key: 'h' }, 'You are not signed in'),
        h('p', { key: 'p' }, 'There is no Listkeeper sign-in in this browser.'),
      ],
    });
  }
  return OAuthPage({
    title: 'Sign out',
    children: [
      h('h1', { key: 'h' }, 'Sign out of Listkeeper?'),
      h(
        'p',
        { key: 'p' },
        `You are signed in as ${input.username}. Signing out also revokes the access you gave applications during this sign-in.`,
      ),
      h(
        PostForm,
        { key: 'f', action: OAUTH_PAGE_PATHS.logout, csrfToken: input.csrfToken },
        h(Actions, null, h('button', { type: 'submit', className: 'primary' }, 'Sign out')),
      ),
    ],
  });
}

export function signedOutPage(): string {
  return OAuthPage({
    title: 'Signed out',
    children: [
      h('h1', { key: 'h' }, 'You are signed out'),
      h('p', { key: 'p' }, 'The access you gave applications during that sign-in is revoked.'),
    ],
  });
}

export function errorPage(input: { title: string; message: string; retryHref?: string }): string {
  return OAuthPage({
    title: input.title,
    children: [
      h('h1', { key: 'h' }, input.title),
      h('p', { key: 'p' }, input.message),
      input.retryHref
        ? h('p', { key: 'r' }, h('a', { href: input.retryHref }, 'Start again'))
        : null,
    ],
  });
}
