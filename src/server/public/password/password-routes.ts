import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../api/constants.ts';
import {
  PASSWORD_PATH,
  readPasswordLink,
  setPasswordByLink,
} from '../../administrators/password-links.ts';
import { hashPassword } from '../../auth/keys.ts';
import type { AppDeps } from '../../http/app-deps.ts';
import { HttpError } from '../../http/http-error.ts';
import { sendPage } from '../kit/reply.ts';
import { readPublicForm } from '../read-form.ts';
import {
  PasswordLinkInvalidPage,
  PasswordSetPage,
  SetPasswordPage,
  type PasswordProblem,
} from './password-page.ts';

/**
 * The set-password link of the welcome mail (issue 27 item 4, administrators/password-links.ts),
 * at `PUBLIC_URL/password/<token>`: server-rendered, no script, the dashboard's page headers
 * (app.ts), no cookie, nothing cached. GET shows the form and changes nothing (SECURITY.md 41);
 * POST checks the password against the rule, then uses the link once and sets it. A used, expired
 * or forged link gets a 404 page and changes nothing (SECURITY.md 42).
 */
export function registerPasswordRoutes(app: FastifyInstance, deps: AppDeps): void {
  const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;

  app.get(`${PASSWORD_PATH}:token`, async (request, reply) => {
    const holder = await readPasswordLink(deps.db, tokenOf(request), deps.clock.now());
    if (!holder) return sendPage(reply, 404, PasswordLinkInvalidPage());
    return sendPage(reply, 200, SetPasswordPage({ username: holder.username }));
  });

  app.post(`${PASSWORD_PATH}:token`, async (request, reply) => {
    const token = tokenOf(request);
    // The link first: nobody makes the server hash a password for a link that does not work.
    const holder = await readPasswordLink(deps.db, token, deps.clock.now());
    if (!holder) return sendPage(reply, 404, PasswordLinkInvalidPage());
    let fields: Map<string, string>;
    try {
      fields = await readPublicForm(request, ['password', 'confirm']);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      const problem = { field: 'password', message: error.message } as const;
      return sendPage(reply, error.status, SetPasswordPage({ username: holder.username, problem }));
    }
    const problem = problemOf(fields.get('password') ?? '', fields.get('confirm') ?? '');
    if (problem)
      return sendPage(reply, 400, SetPasswordPage({ username: holder.username, problem }));
    // scrypt is slow on purpose: outside the transaction, which holds SQLite's one writer.
    const hash = await hashPassword(fields.get('password') ?? '');
    const now = deps.clock.now();
    const done = await deps.unitOfWork((trx) => setPasswordByLink(trx, token, hash, now));
    // Used by another request meanwhile (a double click): that one set the password.
    if (!done) return sendPage(reply, 404, PasswordLinkInvalidPage());
    const signInUrl = `${deps.publicOrigin().replace(/\/+$/, '')}/`;
    return sendPage(reply, 200, PasswordSetPage({ username: done.username, signInUrl }));
  });
}

/** The reference server's password rule (api/constants.ts), said in words on its field. */
function problemOf(password: string, confirm: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return {
      field: 'password',
      message: `The password needs at least ${PASSWORD_MIN_LENGTH} characters: it has ${password.length}.`,
    };
  if (password.length > PASSWORD_MAX_LENGTH)
    return {
      field: 'password',
      message: `The password has at most ${PASSWORD_MAX_LENGTH} characters.`,
    };
  if (confirm !== password)
    return { field: 'confirm', message: 'The two passwords differ: type the same one twice.' };
  return null;
}
