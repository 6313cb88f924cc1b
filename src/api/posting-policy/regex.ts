import { RE2JS } from 're2js';

/**
 * User regular expressions (taboo rules) run in re2js: linear time whatever the pattern and the
 * text, so a hostile pattern or message cannot stall the pipeline (SECURITY.md 31). A minimal
 * compile-and-cache helper for the posting policy; a shared validation module for every user
 * pattern (restrict_contact*, taboo rules) may replace it.
 */

export type CompiledPattern =
  { ok: true; find: (text: string) => string | null } | { ok: false; error: string };

/** Compiled patterns by flags and source; cleared when full so it stays small. */
const cache = new Map<string, CompiledPattern>();
const CACHE_LIMIT = 512;

/**
 * A pattern ready to search with: `find` answers the first matched text, or null. `multiline`
 * lets ^ and $ match at line breaks (a body is searched whole, line by line in effect).
 */
export function compilePattern(source: string, { multiline = false } = {}): CompiledPattern {
  const key = `${multiline ? 'm' : '-'}${source}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const compiled = compile(source, multiline);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

function compile(source: string, multiline: boolean): CompiledPattern {
  if (source === '') return { ok: false, error: 'an empty pattern would match everything' };
  try {
    const pattern = RE2JS.compile(source, multiline ? RE2JS.MULTILINE : 0);
    return {
      ok: true,
      find: (text) => {
        const matcher = pattern.matcher(text);
        return matcher.find() ? (matcher.group() ?? '') : null;
      },
    };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
