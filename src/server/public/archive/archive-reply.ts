import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import type { AppDeps } from '../../http/app-deps.ts';
import { findPublicList, type PublicList } from '../../members/public-list.ts';
import { readCookie } from '../../oauth/cookies.ts';
import { h } from '../kit/html.ts';
import { sendPage } from '../kit/reply.ts';
export { answeringForm, sendPage } from '../kit/reply.ts';
import { MessagePage } from '../pages/message-page.ts';
import { ArchivePage, type ArchivePlace } from './archive-layout.ts';
import { passCookie, passCookieName } from './archive-pass.ts';
import { archiveRoot } from './archive-paths.ts';

/** What the archive's routes share: how they answer, find the list and read the pass. */
export function archiveReplies(deps: AppDeps) {
  const secure = (request: FastifyRequest) =>
    request.protocol === 'https' || deps.publicOrigin().startsWith('https:');
  return {
    /**
     * The list of the URL when its archive is on (spec §2.4 `archive_enabled`); else a 404 page has
     * been sent, the same as for no list at all.
     */
    async archiveOf(request: FastifyRequest, reply: FastifyReply): Promise<PublicList | null> {
      const { list: address } = request.params as { list: string };
      const list = await findPublicList(deps.db, address);
      if (list?.settings.archive_enabled) return list;
      sendPage(reply, 404, noArchivePage());
      return null;
    },
    passOf(request: FastifyRequest): string | undefined {
      return readCookie(request.headers.cookie, passCookieName(secure(request)));
    },
    /** Set-Cookie of a new pass for the list's archive, or of its end (`value` empty). */
    passCookie(
      request: FastifyRequest,
      list: PublicList,
      value: string,
      maxAgeSeconds: number,
    ): string {
      return passCookie(value, {
        path: archiveRoot(list.address),
        secure: secure(request),
        maxAgeSeconds,
      });
    },
  };
}


/** 303 to a page of the archive (after a form): the browser then GETs it. */
export function seeArchive(
  reply: FastifyReply,
  list: PublicList,
  path = '',
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .status(303)
    .headers({
      'cache-control': 'no-store',
      ...headers,
      location: `${archiveRoot(list.address)}${path}`,
    })
    .send();
}


/** A page address whose query is not one the page reads (`what`: the archive, the index). */
export function unreadableQueryPage(what: string): ReactElement {
  return MessagePage({
    title: `This address is not one of ${what}`,
    children: h('p', null, 'Its query cannot be read.'),
  });
}

export function noArchivePage(): ReactElement {
  return MessagePage({
    title: 'No such archive',
    children: h('p', null, 'There is no public archive at this address.'),
  });
}

/** A page of the archive that is not there (a message deleted, a month without messages). */
export function notInArchivePage(place: ArchivePlace, what: string): ReactElement {
  return h(
    ArchivePage,
    { place, title: 'Not in the archive', inside: true },
    h('h1', null, 'Not in the archive'),
    h('p', null, what),
  );
}

export function invalidArchiveLinkPage(place: ArchivePlace): ReactElement {
  return h(
    ArchivePage,
    { place: { ...place, personal: true }, title: 'This link does not work', inside: false },
    h('h1', null, 'This link does not work'),
    h(
      'p',
      null,
      'It was used already, it has expired, or part of it is missing. Ask for a new one at the archive’s door.',
    ),
    h('p', null, h('a', { href: place.base || './' }, 'Go to the archive')),
  );
}
