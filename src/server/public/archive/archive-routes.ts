import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ReactElement } from 'react';
import * as z from 'zod';
import type { AppDeps } from '../../http/app-deps.ts';
import { PUBLIC_PREFIX } from '../../members/links.ts';
import type { PublicList } from '../../members/public-list.ts';
import { linkKey } from '../../tokens/signed-link.ts';
import { formStarted } from '../bot-traps.ts';
import { ArchiveDoorPage } from '../pages/archive-door-page.ts';
import { accessOf } from './archive-access.ts';
import { ARCHIVE_STYLESHEET_PATH, type ArchivePlace } from './archive-layout.ts';
import { ARCHIVE, archiveRoot, baseOf, idIn, pathFromRoot } from './archive-paths.ts';
import {
  archiveReplies,
  notInArchivePage,
  sendPage,
  unreadableQueryPage,
} from './archive-reply.ts';
import { registerDoorRoutes } from './door-routes.ts';
import { registerListsIndex } from './lists-index.ts';
import {
  messagePage,
  monthPage,
  monthsPage,
  searchPage,
  threadPage,
  threadsPage,
  type Reading,
} from './reading-pages.ts';
import { sanitizerPool } from './sanitizer-pool.ts';

const STYLESHEET = fs.readFileSync(new URL('./archive.css', import.meta.url), 'utf8');

/** What a page's address may add after `?`: each once (a name given twice is an array, refused). */
const ID = z
  .string()
  .transform((text, context) => {
    const id = idIn(text);
    if (id === null) context.addIssue({ code: 'custom', message: 'not an id' });
    return id ?? 0;
  })
  .optional();
const QUERY = z.object({
  before: ID,
  after: ID,
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/)
    .transform(Number)
    .optional(),
  q: z.string().max(1000).optional(),
});
export type ArchiveQuery = z.infer<typeof QUERY>;

/**
 * The members' archive (issue 26 item 3) under `/l/<list address>/archive/`, and the index of
 * lists at `/l/`: server-rendered, no script, the dashboard's page headers (app.ts), nothing
 * cached (a message deleted through the API is gone from the next page). A list whose archive is
 * off (spec §2.4 `archive_enabled`) has none: every page of it is a 404.
 */
export function registerArchiveRoutes(app: FastifyInstance, deps: AppDeps): void {
  const sanitizer = sanitizerPool();
  app.addHook('onClose', () => sanitizer.close());
  const replies = archiveReplies(deps);

  app.get(ARCHIVE_STYLESHEET_PATH, (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(STYLESHEET),
  );
  registerListsIndex(app, deps);

  // The pages link to each other relatively: the root must end with its slash.
  app.get(`${PUBLIC_PREFIX}:list/archive`, async (request, reply) => {
    const list = await replies.archiveOf(request, reply);
    return list ? reply.redirect(archiveRoot(list.address), 301) : reply;
  });

  /** A page for readers: `depth` folders below the root; `render` answers null for a 404. */
  const reading = (
    path: string,
    depth: number,
    render: (reading: Reading) => Promise<ReactElement | null>,
  ) =>
    app.get(`${PUBLIC_PREFIX}:list/${ARCHIVE}${path}`, async (request, reply) => {
      const list = await replies.archiveOf(request, reply);
      if (!list) return reply;
      // One spelling per archive, so that its pass (a cookie of this path) is always sent.
      const canonical = canonicalUrl(request.url, list);
      if (canonical !== request.url) return reply.redirect(canonical, 301);
      const query = QUERY.safeParse(request.query);
      if (!query.success) return sendPage(reply, 400, unreadableQueryPage('the archive’s'));
      const now = deps.clock.now();
      const key = await linkKey(deps.db);
      const pass = replies.passOf(request);
      const access = await accessOf(deps.db, key, list, pass, now);
      const place: ArchivePlace = {
        listName: list.name,
        base: baseOf(depth),
        personal: list.settings.archive_protected,
        closable: access.kind === 'pass',
      };
      if (access.kind === 'door')
        return sendPage(
          reply,
          403,
          ArchiveDoorPage({
            place,
            ways: access.ways,
            started: formStarted(key, now),
            back: pathFromRoot(request.url),
          }),
          // A pass that no longer opens anything is ended.
          access.hadPass ? { 'set-cookie': replies.passCookie(request, list, '', 0) } : {},
        );
      const page = await render({
        db: deps.db,
        list,
        place,
        spammode: list.settings.archive_spammode,
        query: query.data,
        params: request.params as Record<string, string>,
        sanitize: (html) => sanitizer.sanitize({ html, spammode: list.settings.archive_spammode }),
      });
      return sendPage(
        reply,
        page ? 200 : 404,
        page ?? notInArchivePage(place, 'There is nothing here: it may have been deleted.'),
      );
    });

  reading('', 0, threadsPage);
  reading('months/', 1, monthsPage);
  reading('search', 0, searchPage);
  reading('thread/:thread/', 2, threadPage);
  // A month (`2026-11/`) or a message (`123/`): both one folder below the root.
  reading(':item/', 1, (r) => (/^\d+$/.test(r.params.item ?? '') ? messagePage(r) : monthPage(r)));

  registerDoorRoutes(app, deps, replies);
}

/** The URL with the list's address as the archive spells it (the same URL when it already is). */
function canonicalUrl(url: string, list: PublicList): string {
  const rootEnd = url.indexOf('/', PUBLIC_PREFIX.length) + 1 + ARCHIVE.length;
  const root = archiveRoot(list.address);
  return url.slice(0, rootEnd) === root ? url : `${root}${url.slice(rootEnd)}`;
}
