import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import type { AppDeps } from '../../http/app-deps.ts';
import { listPath, PUBLIC_PREFIX } from '../../members/links.ts';
import { hasPublicPage, toPublicList } from '../../members/public-list.ts';
import { listsForIndex } from '../../repositories/archive.repository.ts';
import { ListsIndexPage, type IndexedList } from '../pages/lists-index-page.ts';
import { ARCHIVE } from './archive-paths.ts';
import { sendPage, unreadableQueryPage } from './archive-reply.ts';

/** Lists a page of the index shows, and rows it reads at most to find them (most lists show). */
const INDEX_PAGE = { lists: 100, batch: 250, rows: 2_000 } as const;

const QUERY = z.object({
  after: z
    .string()
    .max(400)
    .regex(/^[^/]+\/[^/]+$/)
    .transform((value) => {
      const [domain = '', name = ''] = value.split('/');
      return { domain, name };
    })
    .optional(),
});

/**
 * `/l/`: every list with a public page (a way to join or leave, or an archive), by domain, with
 * its description; a list whose `archive_index_noshow` is on is left out (spec §2.4). One index
 * for the whole server, not one per Host: the server has one public origin (PUBLIC_URL), every
 * link it mails is under it, and a request's Host header decides nothing (SECURITY.md 34); the
 * domains group what each account offers. A page reads a bounded number of rows (INDEX_PAGE).
 */
export function registerListsIndex(app: FastifyInstance, deps: AppDeps): void {
  app.get(PUBLIC_PREFIX, async (request, reply) => {
    const query = QUERY.safeParse(request.query);
    if (!query.success) return sendPage(reply, 400, unreadableQueryPage('the index’s'));
    const shown: IndexedList[] = [];
    let after = query.data.after ?? null;
    let read = 0;
    let exhausted = false;
    reading: while (shown.length < INDEX_PAGE.lists && read < INDEX_PAGE.rows) {
      const rows = await listsForIndex(deps.db, after, INDEX_PAGE.batch);
      exhausted = rows.length < INDEX_PAGE.batch;
      for (const [index, row] of rows.entries()) {
        read += 1;
        after = { domain: row.domain, name: row.name };
        const list = toPublicList(row);
        if (!hasPublicPage(list) || list.settings.archive_index_noshow) continue;
        shown.push({
          name: list.name,
          address: list.address,
          description: list.settings.description.trim(),
          page: listPath(list.address),
          archive: list.settings.archive_enabled ? `${listPath(list.address)}${ARCHIVE}` : null,
          protectedArchive: list.settings.archive_protected,
        });
        if (shown.length === INDEX_PAGE.lists) {
          exhausted &&= index === rows.length - 1;
          break reading;
        }
      }
      if (exhausted) break;
    }
    const domains = new Map<string, IndexedList[]>();
    for (const list of shown) {
      const domain = list.address.slice(list.address.lastIndexOf('@') + 1);
      const lists = domains.get(domain);
      if (lists) lists.push(list);
      else domains.set(domain, [list]);
    }
    return sendPage(
      reply,
      200,
      ListsIndexPage({
        domains: [...domains].map(([domain, lists]) => ({ domain, lists })),
        more:
          !exhausted && after
            ? `?after=${encodeURIComponent(`${after.domain}/${after.name}`)}`
            : null,
      }),
    );
  });
}
