import { compileUserRegex, userRegexProblem } from '../user-regex.ts';

/**
 * User regular expressions (taboo rules) run in re2js: linear time whatever the pattern and the
 * text, so a hostile pattern or message cannot stall the pipeline (SECURITY.md 31). The one engine and
 * its reasons live in ../user-regex.ts; this caches compiled rules for the policy.
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
  const problem = userRegexProblem(source);
  if (problem !== null) return { ok: false, error: problem };
  const { find } = compileUserRegex(source, { multiline });
  return { ok: true, find };
}
