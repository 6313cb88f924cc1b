import { listPath } from '../../members/links.ts';

/**
 * The archive's pages, under `/l/<list address>/archive/`. Pages link to each other by relative
 * paths (`base` leads from a page back to the archive's root), so that no page carries the
 * list's address, or any address, in its markup (spec §2.4 `archive_spammode`).
 */
export const ARCHIVE = 'archive/';

export const archivePaths = {
  threads: '',
  months: 'months/',
  month: (month: string) => `${month}/`,
  message: (id: number) => `${id}/`,
  thread: (id: number) => `thread/${id}/`,
  search: 'search',
  access: 'access',
  password: 'password',
  close: 'close',
} as const;

/** A link from a page whose way back to the root is `base` to `path` of the archive. */
export function linkFrom(base: string, path: string): string {
  return `${base}${path}` || './';
}

/** `base` of a page `depth` folders below the archive's root. */
export function baseOf(depth: number): string {
  return '../'.repeat(depth);
}

/** The archive's root, absolute (redirects, the pass cookie's path). */
export function archiveRoot(listAddress: string): string {
  return `${listPath(listAddress)}${ARCHIVE}`;
}

/** A row id in a URL: digits that fit the databases' integer ids (2^31 - 1), else null. */
export function idIn(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : null;
}

/**
 * Where a reader who opened the door goes back to: a page of the archive named by its path from
 * the root, one of the shapes the archive serves and nothing else (no other site, no `..`).
 */
const RETURN_PATH = /^(?:months\/|\d{4}-\d{2}\/|\d{1,10}\/|thread\/\d{1,10}\/)?$/;

export function returnPath(value: string | undefined): string {
  return value !== undefined && RETURN_PATH.test(value) ? value : '';
}

/** The page's path from the archive's root, as the door's form hands it back. */
export function pathFromRoot(url: string): string {
  const path = url.split('?')[0] ?? '';
  const at = path.indexOf(`/${ARCHIVE}`);
  return at === -1 ? '' : returnPath(decodeURIComponent(path.slice(at + ARCHIVE.length + 1)));
}
