import type { SearchTerm } from '../../repositories/archive.repository.ts';

/**
 * A reader's search, as the archive's indexes read words (migration 2026-11-29T0500): runs of
 * letters and digits, lower-cased; every one must match. Bounded so that no search costs much: a
 * query of 200 characters at most, its first 8 words, each cut to 64 characters. A word of three
 * letters or more matches the words it begins (`arch` finds `archive`); a shorter one matches
 * itself only, as a prefix of one or two letters would match a large part of any index.
 */
export const SEARCH_LIMITS = { queryChars: 200, words: 8, wordChars: 64, prefixFrom: 3 } as const;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

export function searchTerms(query: string): SearchTerm[] {
  const words = query.slice(0, SEARCH_LIMITS.queryChars).toLowerCase().match(WORD) ?? [];
  return [...new Set(words)].slice(0, SEARCH_LIMITS.words).map((word) => {
    const cut = [...word].slice(0, SEARCH_LIMITS.wordChars).join('');
    return { word: cut, prefix: [...cut].length >= SEARCH_LIMITS.prefixFrom };
  });
}

const SNIPPET_CHARS = 160;

/** A line of the message's text around its first match, for a result; the start when none is found. */
export function snippetOf(plain: string, terms: readonly SearchTerm[]): string {
  const text = plain.replace(/\s+/g, ' ').trim();
  const lower = text.toLowerCase();
  const at = Math.min(
    ...terms.map((term) => lower.indexOf(term.word)).filter((index) => index >= 0),
    Number.POSITIVE_INFINITY,
  );
  const start = at === Number.POSITIVE_INFINITY ? 0 : Math.max(0, at - SNIPPET_CHARS / 4);
  const line = text.slice(start, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${line}${start + SNIPPET_CHARS < text.length ? '…' : ''}`;
}
