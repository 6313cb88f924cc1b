import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EmailAddress } from '../../../api/primitives.ts';
import { verifyPassword } from '../../auth/keys.ts';
import type { AppDeps } from '../../http/app-deps.ts';
import { DAY_MS } from '../../members/lifetimes.ts';
import { PUBLIC_PREFIX } from '../../members/links.ts';
import type { PublicList } from '../../members/public-list.ts';
import { takeAddressMail, takeClientRequest } from '../../members/throttle.ts';
import { archivePasswordHash } from '../../repositories/archive.repository.ts';
import { emailKey } from '../../repositories/emails.repository.ts';
import { findMemberOfList } from '../../repositories/member-directory.repository.ts';
import { linkKey } from '../../tokens/signed-link.ts';
import { issueStoredToken, peekStoredToken, takeStoredToken } from '../../tokens/stored-token.ts';
import { formStarted, looksHuman } from '../bot-traps.ts';
import { ArchiveDoorPage, ArchiveOpenPage, type DoorAnswer } from '../pages/archive-door-page.ts';
import { readPublicForm } from '../read-form.ts';
import { doorWays } from './archive-access.ts';
import type { ArchivePlace } from './archive-layout.ts';
import { ARCHIVE_LINK_HOURS, queueArchiveLink } from './archive-mail.ts';
import { PASS_DAYS, signPass } from './archive-pass.ts';
import { ARCHIVE, archiveRoot, baseOf, returnPath } from './archive-paths.ts';
import {
  answeringForm,
  type archiveReplies,
  invalidArchiveLinkPage,
  seeArchive,
  sendPage,
} from './archive-reply.ts';
import { takePasswordGuess } from './password-throttle.ts';

const MAILED =
  'If that address is a member, we have mailed it a link that opens the archive. It may take a few minutes.';
const TOO_MANY = 'This connection has sent many requests in the last hour. Try again later.';
/** Longer than anyone types: refused before scrypt reads it. */
const MAX_PASSWORD_CHARS = 1000;

/**
 * The door of a protected archive (spec §2.4 `archive_protected`, `archive_memberview`,
 * `archive_password`) and the pass it gives (archive-pass.ts). A member asks for a link on the
 * door; it is mailed to a member's address only (a stored token, purpose `archive`: single use,
 * 24 hours, SECURITY.md 42), and its page's button opens the archive in that browser. The
 * password opens it too; guesses are limited (password-throttle.ts), and the password is never
 * shown, kept or logged (only its hash is stored, by lists.service). A GET never changes anything
 * (SECURITY.md 41).
 */
export function registerDoorRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  replies: ReturnType<typeof archiveReplies>,
): void {
  const { db } = deps;
  const root = `${PUBLIC_PREFIX}:list/${ARCHIVE}`;
  const place = (list: PublicList, depth: number): ArchivePlace => ({
    listName: list.name,
    base: baseOf(depth),
    personal: true,
    closable: false,
  });
  /** The door again, with what its form answered. */
  const door = async (
    reply: FastifyReply,
    list: PublicList,
    status: number,
    answer: DoorAnswer,
    back = '',
    headers: Record<string, string> = {},
  ) => {
    const key = await linkKey(db);
    const ways = await doorWays(db, list);
    const started = formStarted(key, deps.clock.now());
    return sendPage(
      reply,
      status,
      ArchiveDoorPage({ place: place(list, 0), ways, started, back, answer }),
      headers,
    );
  };
  /** The list of a door's POST, when its archive is protected; else the reader is sent in. */
  const protectedList = async (request: FastifyRequest, reply: FastifyReply) => {
    const list = await replies.archiveOf(request, reply);
    if (list && !list.settings.archive_protected) {
      seeArchive(reply, list);
      return null;
    }
    return list;
  };

  app.post(`${root}access`, async (request, reply) => {
    const list = await protectedList(request, reply);
    if (!list) return reply;
    return answeringForm(reply, async () => {
      const fields = await readPublicForm(request, ['email', 'started', 'website']);
      const now = deps.clock.now();
      const key = await linkKey(db);
      const typed = (fields.get('email') ?? '').trim();
      if (!list.settings.archive_memberview) return door(reply, list, 403, { form: 'member' });
      // A bot is told what a person is told, and nothing is done.
      if (!looksHuman(key, fields, now))
        return door(reply, list, 200, { form: 'member', notice: MAILED });
      if (!(await takeClientRequest(db, request.ip, now)))
        return door(reply, list, 429, { form: 'member', value: typed, error: TOO_MANY }, '', {
          'retry-after': '3600',
        });
      if (!EmailAddress.safeParse(typed).success)
        return door(reply, list, 400, {
          form: 'member',
          value: typed,
          error: 'Enter an email address, such as name@example.org.',
        });
      // The same answer whether or not the address is a member (SECURITY.md 41), and at most one
      // mail an hour to an address, whoever asks (SECURITY.md 43).
      await deps.unitOfWork(async (trx) => {
        const member = await findMemberOfList(trx, list.accountId, list.id, {
          addressKey: emailKey(typed),
        });
        if (member?.membershipId == null || !(await takeAddressMail(trx, emailKey(typed), now)))
          return;
        const token = await issueStoredToken(
          trx,
          {
            purpose: 'archive',
            accountId: list.accountId,
            listId: list.id,
            addressKey: emailKey(member.email),
            requestId: null,
          },
          now,
          ARCHIVE_LINK_HOURS * 3_600_000,
        );
        const link = `${deps.publicOrigin().replace(/\/+$/, '')}${archiveRoot(list.address)}open/${token}`;
        await queueArchiveLink(trx, list, member.email, link, now);
      });
      return door(reply, list, 200, { form: 'member', notice: MAILED });
    });
  });

  app.post(`${root}password`, async (request, reply) => {
    const list = await protectedList(request, reply);
    if (!list) return reply;
    return answeringForm(reply, async () => {
      const fields = await readPublicForm(request, ['password', 'back']);
      const back = returnPath(fields.get('back'));
      const now = deps.clock.now();
      const hash = await archivePasswordHash(db, list.id);
      if (hash === null) return door(reply, list, 403, { form: 'password' }, back);
      if (!(await takePasswordGuess(db, list.id, request.ip, now)))
        return door(reply, list, 429, { form: 'password', error: TOO_MANY }, back, {
          'retry-after': '3600',
        });
      const typed = fields.get('password') ?? '';
      if (typed.length > MAX_PASSWORD_CHARS || !(await verifyPassword(typed, hash)))
        return door(
          reply,
          list,
          403,
          { form: 'password', error: 'That is not the archive’s password.' },
          back,
        );
      const pass = signPass(
        await linkKey(db),
        { kind: 'password', listId: list.id, emailId: 0, expires: passExpiry(now) },
        hash,
      );
      return seeArchive(reply, list, back, {
        'set-cookie': replies.passCookie(request, list, pass, PASS_DAYS * 86_400),
      });
    });
  });

  // A mailed link: its GET shows a button, its POST uses the token once and gives the pass.
  app.get(`${root}open/:token`, async (request, reply) => {
    const list = await replies.archiveOf(request, reply);
    if (!list) return reply;
    const { token } = request.params as { token: string };
    const found = await peekStoredToken(db, token, 'archive', deps.clock.now());
    if (!found || found.list_id !== list.id)
      return sendPage(reply, 404, invalidArchiveLinkPage(place(list, 1)));
    return sendPage(reply, 200, ArchiveOpenPage({ place: place(list, 1) }));
  });

  app.post(`${root}open/:token`, async (request, reply) => {
    const list = await replies.archiveOf(request, reply);
    if (!list) return reply;
    return answeringForm(reply, async () => {
      await readPublicForm(request, []);
      const { token } = request.params as { token: string };
      const now = deps.clock.now();
      const member = await deps.unitOfWork(async (trx) => {
        const used = await takeStoredToken(trx, token, 'archive', now);
        if (!used || used.list_id !== list.id) return null;
        const found = await findMemberOfList(trx, list.accountId, list.id, {
          addressKey: used.address_key,
        });
        return found?.membershipId == null ? null : found;
      });
      if (!member) return sendPage(reply, 404, invalidArchiveLinkPage(place(list, 1)));
      // The list may have changed since the mail: a link opens only what the list still offers.
      if (!list.settings.archive_protected) return seeArchive(reply, list);
      if (!list.settings.archive_memberview) return door(reply, list, 403, { form: 'member' });
      const pass = signPass(
        await linkKey(db),
        { kind: 'member', listId: list.id, emailId: member.emailId, expires: passExpiry(now) },
        emailKey(member.email),
      );
      return seeArchive(reply, list, '', {
        'set-cookie': replies.passCookie(request, list, pass, PASS_DAYS * 86_400),
      });
    });
  });

  // Ends the pass in this browser.
  app.post(`${root}close`, async (request, reply) => {
    const list = await replies.archiveOf(request, reply);
    if (!list) return reply;
    return answeringForm(reply, async () => {
      await readPublicForm(request, []);
      return seeArchive(reply, list, '', {
        'set-cookie': replies.passCookie(request, list, '', 0),
      });
    });
  });
}

function passExpiry(now: Date): number {
  return Math.floor((now.getTime() + PASS_DAYS * DAY_MS) / 1000);
}
