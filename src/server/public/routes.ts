import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import type { AppDeps } from '../http/app-deps.ts';
import { HttpError } from '../http/http-error.ts';
import { memberOfLink } from '../members/link-check.ts';
import { memberLinks, PUBLIC_PREFIX } from '../members/links.ts';
import { findPublicList, hasPublicPage, type PublicList } from '../members/public-list.ts';
import { takeClientRequest } from '../members/throttle.ts';
import {
  askForMemberPage,
  askToJoin,
  askToLeave,
  confirmRequest,
  leaveByLink,
  readConfirmation,
  type AskOutcome,
  type MembersContext,
  type StepOutcome,
} from '../members/workflow.ts';
import { linkKey } from '../tokens/signed-link.ts';
import { formStarted, looksHuman } from './bot-traps.ts';
import { h } from './kit/html.ts';
import { answeringForm, sendPage } from './kit/reply.ts';
import { STYLESHEET_PATH } from './kit/layout.ts';
import { ConfirmPage } from './pages/confirm-page.ts';
import { ListPage, type FormAnswer } from './pages/list-page.ts';
import { MemberPage, MEMBER_ACTIONS, type MemberAction } from './pages/member-page.ts';
import { MessagePage } from './pages/message-page.ts';
import { OneClickPage } from './pages/one-click-page.ts';
import { applyMemberAction } from './member-actions.ts';
import { registerArchiveRoutes } from './archive/archive-routes.ts';
import { registerPasswordRoutes } from './password/password-routes.ts';
import { readPublicForm } from './read-form.ts';

const STYLESHEET = fs.readFileSync(new URL('./kit/pages.css', import.meta.url), 'utf8');

/**
 * The members' public pages (issue 25), served by `listkeeper serve` under `/l/<list address>/`:
 * server-rendered, no script, the dashboard's page headers (SECURITY.md 46, set by app.ts's
 * route hook), no cookie. An unknown list, or one with nothing public, is a 404 of its own
 * (never the dashboard's page).
 */
export function registerPublicRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  const context = async (): Promise<MembersContext> => ({
    db,
    now: deps.clock.now(),
    links: memberLinks(deps.publicOrigin()),
    linkKey: await linkKey(db),
  });
  /** The list of the URL, or a 404 page. */
  const listOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const { list: address } = request.params as { list: string };
    const list = await findPublicList(db, address);
    if (!list || !hasPublicPage(list)) {
      sendPage(reply, 404, notFoundPage());
      return null;
    }
    return list;
  };

  app.get(STYLESHEET_PATH, (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(STYLESHEET),
  );

  app.get(`${PUBLIC_PREFIX}:list/`, async (request, reply) => {
    const list = await listOf(request, reply);
    if (!list) return reply;
    const { linkKey: key, now } = await context();
    return sendPage(reply, 200, ListPage({ list, started: formStarted(key, now) }));
  });

  // The three forms of the list's page: the same answer whether or not the address is a member.
  for (const form of ['join', 'leave', 'manage'] as const) {
    app.post(`${PUBLIC_PREFIX}:list/${form}`, async (request, reply) => {
      const list = await listOf(request, reply);
      if (!list) return reply;
      return answeringForm(reply, async () => {
        const fields = await readPublicForm(request, ['email', 'started', 'website']);
        const ctx = await context();
        const page = (status: number, answer: FormAnswer) =>
          sendPage(reply, status, ListPage({ list, started: formStarted(ctx.linkKey, ctx.now), answer }));
        const value = fields.get('email') ?? '';
        // A bot is told what a person is told, and nothing is done.
        if (!looksHuman(ctx.linkKey, fields, ctx.now))
          return page(200, { form, value, notice: mailedNotice(form) });
        if (!(await takeClientRequest(db, request.ip, ctx.now)))
          return sendPage(reply, 429, tooManyPage(list), { 'retry-after': '3600' });
        const outcome = await deps.unitOfWork((trx) => {
          const inTrx = { ...ctx, db: trx };
          if (form === 'join') return askToJoin(inTrx, list, value, 'web');
          if (form === 'leave') return askToLeave(inTrx, list, value, 'web');
          return askForMemberPage(inTrx, list, value);
        }, fromThePage(request));
        const answer = answerOf(form, value, outcome);
        return page(answer.error ? 400 : 200, answer);
      });
    });
  }

  app.get(`${PUBLIC_PREFIX}:list/confirm/:token`, async (request, reply) => {
    const list = await listOf(request, reply);
    if (!list) return reply;
    const { token } = request.params as { token: string };
    const pending = await readConfirmation(db, list, token, deps.clock.now());
    if (!pending) return sendPage(reply, 404, invalidLinkPage(list, deps));
    return sendPage(reply, 200, ConfirmPage({ list, kind: pending.kind, address: pending.address }));
  });

  app.post(`${PUBLIC_PREFIX}:list/confirm/:token`, async (request, reply) => {
    const list = await listOf(request, reply);
    if (!list) return reply;
    return answeringForm(reply, async () => {
      await readPublicForm(request, []);
      const { token } = request.params as { token: string };
      const ctx = await context();
      const outcome = await deps.unitOfWork(
        (trx) => confirmRequest({ ...ctx, db: trx }, list, token, 'confirmed on the web'),
        fromThePage(request),
      );
      return sendStep(reply, list, deps, outcome);
    });
  });

  // RFC 8058: the URL of a delivery's List-Unsubscribe. GET shows a button; POST leaves at once,
  // without cookie or authorization, and answers 200 (no redirect).
  app.get(`${PUBLIC_PREFIX}:list/unsubscribe/:token`, async (request, reply) => {
    const list = await listOf(request, reply);
    if (!list) return reply;
    const { token } = request.params as { token: string };
    const { linkKey: key, now } = await context();
    const member = await memberOfLink(db, key, list, token, 'unsubscribe', now);
    if (!member) return sendPage(reply, 404, invalidLinkPage(list, deps));
    return sendPage(reply, 200, OneClickPage({ list, address: member.email }));
  });

  app.post(`${PUBLIC_PREFIX}:list/unsubscribe/:token`, async (request, reply) => {
    const list = await listOf(request, reply);
    if (!list) return reply;
    return answeringForm(reply, async () => {
      const fields = await readPublicForm(request, ['List-Unsubscribe']);
      if (fields.get('List-Unsubscribe') !== 'One-Click')
        throw new HttpError(400, 'A one-click request says List-Unsubscribe=One-Click (RFC 8058)');
      const { token } = request.params as { token: string };
      const ctx = await context();
      const outcome = await deps.unitOfWork(async (trx) => {
        const member = await memberOfLink(trx, ctx.linkKey, list, token, 'unsubscribe', ctx.now);
        return member ? leaveByLink({ ...ctx, db: trx }, list, member, 'one-click') : null;
      }, fromThePage(request));
      if (!outcome) return sendPage(reply, 404, invalidLinkPage(list, deps));
      return sendStep(reply, list, deps, outcome);
    });
  });

  // The member's own page (issue 25 item 6): a personal link, no password.
  app.get(`${PUBLIC_PREFIX}:list/member/:token`, async (request, reply) => {
    const list = await listOf(request, reply);
    if (!list) return reply;
    const { token } = request.params as { token: string };
    const ctx = await context();
    const member = await memberOfLink(db, ctx.linkKey, list, token, 'member', ctx.now);
    if (!member) return sendPage(reply, 404, invalidLinkPage(list, deps));
    return sendPage(reply, 200, MemberPage({ list, member, listPage: ctx.links.list(list.address) }));
  });

  app.post(`${PUBLIC_PREFIX}:list/member/:token`, async (request, reply) => {
    const list = await listOf(request, reply);
    if (!list) return reply;
    return answeringForm(reply, async () => {
      const fields = await readPublicForm(request, ['action']);
      const action = fields.get('action') as MemberAction | undefined;
      if (!action || !MEMBER_ACTIONS.includes(action))
        throw new HttpError(400, `action: one of ${MEMBER_ACTIONS.join(', ')}`);
      const { token } = request.params as { token: string };
      const ctx = await context();
      const done = await deps.unitOfWork(async (trx) => {
        const member = await memberOfLink(trx, ctx.linkKey, list, token, 'member', ctx.now);
        return member ? applyMemberAction({ ...ctx, db: trx }, list, member, action) : null;
      }, fromThePage(request));
      if (!done) return sendPage(reply, 404, invalidLinkPage(list, deps));
      return sendPage(
        reply,
        200,
        MemberPage({ list, member: done.member, notice: done.notice, listPage: ctx.links.list(list.address) }),
      );
    });
  });

  registerArchiveRoutes(app, deps);
  registerPasswordRoutes(app, deps);
}

/** Who the audit log says acts from a public page: its address, on the web (issue 26 item 4). */
function fromThePage(request: FastifyRequest) {
  return { address: request.ip, service: 'web' } as const;
}


function mailedNotice(form: FormAnswer['form']): string {
  if (form === 'manage')
    return 'If that address is a member, we have mailed it a link to its page. It may take a few minutes.';
  return `We have mailed that address a link to confirm. It may take a few minutes; the link works for 3 days.`;
}

function answerOf(form: FormAnswer['form'], value: string, outcome: AskOutcome): FormAnswer {
  switch (outcome.kind) {
    case 'mailed':
      return { form, notice: mailedNotice(form) };
    case 'closed':
      return {
        form,
        value,
        error:
          form === 'join'
            ? 'This list does not take new members on their own request.'
            : 'Members of this list cannot leave on their own: ask its administrators.',
      };
    case 'refused':
      return {
        form,
        value,
        error:
          outcome.why === 'address'
            ? 'Enter an email address, such as name@example.org.'
            : 'This list does not take members from that address.',
      };
  }
}

function sendStep(
  reply: FastifyReply,
  list: PublicList,
  deps: AppDeps,
  outcome: StepOutcome,
): FastifyReply {
  const back = { href: memberLinks(deps.publicOrigin()).list(list.address), label: `Back to ${list.name}` };
  switch (outcome.kind) {
    case 'joined':
      return sendPage(
        reply,
        200,
        MessagePage({
          title: `Welcome to ${list.name}`,
          personal: true,
          children: [
            h('p', { key: 'who' }, `${outcome.request.address} is now a member of ${list.address}.`),
            welcomeParagraph(list),
          ],
          back,
        }),
      );
    case 'left':
      return sendPage(
        reply,
        200,
        MessagePage({
          title: `You have left ${list.name}`,
          personal: true,
          children: h('p', null, `${outcome.request.address} will receive no more mail from ${list.address}.`),
          back,
        }),
      );
    case 'waiting':
      return sendPage(
        reply,
        200,
        MessagePage({
          title: 'Your request waits for a moderator',
          personal: true,
          children: h(
            'p',
            null,
            `A moderator of ${list.address} approves each request to ${outcome.request.kind}; you will hear from us when one has.`,
          ),
          back,
        }),
      );
    case 'closed':
      return sendPage(
        reply,
        200,
        MessagePage({
          title: 'This list does not allow it',
          personal: true,
          children: h('p', null, 'The list’s administrators changed how it takes members: ask them.'),
          back,
        }),
      );
    case 'invalid':
      return sendPage(reply, 404, invalidLinkPage(list, deps));
  }
}

function welcomeParagraph(list: PublicList): ReactElement | null {
  const text = (list.settings.welcome_message || list.account.welcome_message).trim();
  return text ? h('p', { key: 'welcome', className: 'welcome' }, text) : null;
}

function invalidLinkPage(list: PublicList, deps: AppDeps): ReactElement {
  return MessagePage({
    title: 'This link does not work',
    personal: true,
    children: h(
      'p',
      null,
      'It was used already, it has expired, or part of it is missing. Ask again on the list’s page.',
    ),
    back: { href: memberLinks(deps.publicOrigin()).list(list.address), label: `Go to ${list.name}` },
  });
}

function notFoundPage(): ReactElement {
  return MessagePage({
    title: 'No such list',
    children: h('p', null, 'There is no public list at this address.'),
  });
}

function tooManyPage(list: PublicList): ReactElement {
  return MessagePage({
    title: 'Too many requests',
    children: h('p', null, 'This connection has sent many requests in the last hour. Try again later.'),
    back: { href: '.', label: `Back to ${list.name}` },
  });
}
