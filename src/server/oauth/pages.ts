import fs from 'node:fs';
import { OAUTH_PAGE_PATHS } from './paths.ts';
import { SCOPE_DESCRIPTIONS, type Scope } from './scopes.ts';

/**
 * The authorization server's pages: server-rendered HTML with labelled fields, no script and no
 * inline style (the page CSP of SECURITY.md 24 forbids both); the look comes from pages.css.
 * Every value is escaped.
 */
export const PAGES_CSS = fs.readFileSync(new URL('./pages.css', import.meta.url), 'utf8');

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Listkeeper</title>
<link rel="stylesheet" href="${OAUTH_PAGE_PATHS.stylesheet}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function hiddenFields(fields: readonly (readonly [string, string])[]): string {
  return fields.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n');
}

function errorBlock(message: string | undefined): string {
  return message ? `<p class="error" role="alert" id="form-error">${escapeHtml(message)}</p>\n` : '';
}

export function loginPage(input: {
  clientName: string;
  params: readonly (readonly [string, string])[];
  csrfToken: string;
  username?: string;
  error?: string;
}): string {
  const described = input.error ? ' aria-describedby="form-error"' : '';
  return layout(
    'Sign in',
    `<h1>Sign in to Listkeeper</h1>
<p><strong>${escapeHtml(input.clientName)}</strong> asks to use your Listkeeper account. Sign in to continue.</p>
${errorBlock(input.error)}<form method="post" action="${OAUTH_PAGE_PATHS.login}">
${hiddenFields([['csrf_token', input.csrfToken], ...input.params])}
<label for="username">Username</label>
<input id="username" name="username" type="text" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${escapeHtml(input.username ?? '')}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>`,
  );
}

export function consentPage(input: {
  clientName: string;
  username: string;
  grantable: readonly Scope[];
  withheld: readonly Scope[];
  params: readonly (readonly [string, string])[];
  csrfToken: string;
}): string {
  const client = escapeHtml(input.clientName);
  const list = (scopes: readonly Scope[]) =>
    `<ul class="scopes">\n${scopes.map((s) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[s])} <span class="muted">(${s})</span></li>`).join('\n')}\n</ul>`;
  const withheld =
    input.withheld.length === 0
      ? ''
      : `<p>It also asks for the following, which your permissions do not allow; it will not get them:</p>\n${list(input.withheld)}\n`;
  const decision =
    input.grantable.length === 0
      ? `<p>Your permissions allow none of what <strong>${client}</strong> asks for.</p>
<div class="actions"><button type="submit" name="decision" value="deny" class="primary">Return to ${client}</button></div>`
      : `<p><strong>${client}</strong> will be able to:</p>
${list(input.grantable)}
${withheld}<div class="actions">
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>`;
  return layout(
    'Allow access?',
    `<h1>Allow ${client} to use your account?</h1>
<form method="post" action="${OAUTH_PAGE_PATHS.consent}">
${hiddenFields([['csrf_token', input.csrfToken], ...input.params])}
${decision}
</form>
<form method="post" action="${OAUTH_PAGE_PATHS.logout}">
${hiddenFields([['csrf_token', input.csrfToken], ...input.params])}
<p class="muted">Signed in as ${escapeHtml(input.username)}. <button type="submit" class="link">Not you? Sign out</button></p>
</form>`,
  );
}

export function signOutPage(input: { username: string | null; csrfToken: string | null }): string {
  if (input.username === null || input.csrfToken === null) {
    return layout('Sign out', '<h1>You are not signed in</h1>\n<p>There is no Listkeeper sign-in in this browser.</p>');
  }
  return layout(
    'Sign out',
    `<h1>Sign out of Listkeeper?</h1>
<p>You are signed in as ${escapeHtml(input.username)}. Signing out also revokes the access you gave applications during this sign-in.</p>
<form method="post" action="${OAUTH_PAGE_PATHS.logout}">
${hiddenFields([['csrf_token', input.csrfToken]])}
<div class="actions"><button type="submit" class="primary">Sign out</button></div>
</form>`,
  );
}

export function signedOutPage(): string {
  return layout('Signed out', '<h1>You are signed out</h1>\n<p>The access you gave applications during that sign-in is revoked.</p>');
}

export function errorPage(input: { title: string; message: string; retryHref?: string }): string {
  const retry = input.retryHref ? `\n<p><a href="${escapeHtml(input.retryHref)}">Start again</a></p>` : '';
  return layout(input.title, `<h1>${escapeHtml(input.title)}</h1>\n<p>${escapeHtml(input.message)}</p>${retry}`);
}
