import { RE2JS } from 're2js';

/**
 * SECURITY.md 31: every regular expression a user supplies (spec §2.7 `restrict_contact*`, §2.4
 * taboo rules) runs in a linear-time engine, RE2 (re2js, pure JS), never in `RegExp`, whose
 * backtracking takes seconds on patterns like `^([a-z0-9]+\.?)+@x$` (issue 16 finding 3). What
 * RE2 cannot run (backreferences, lookaround) is refused when the pattern is saved, with the
 * reason, so nothing is ever silently skipped when it runs.
 *
 * Own module, imported by the server; the dashboard may import it lazily (`import()`): re2js is
 * about 65 kB gzipped, too much for the app shell.
 */

export interface UserRegex {
  /** Whether the pattern matches anywhere in `text`, as `RegExp.prototype.test` would. */
  test: (text: string) => boolean;
  /** The first text the pattern matches in `text`, or null: what a taboo rule names when it holds. */
  find: (text: string) => string | null;
}

export interface UserRegexOptions {
  ignoreCase?: boolean;
  multiline?: boolean;
}

/** Compiles a pattern for RE2; throws (with userRegexProblem's reason) when it cannot run. */
export function compileUserRegex(source: string, options: UserRegexOptions = {}): UserRegex {
  const flags =
    (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (options.multiline ? RE2JS.MULTILINE : 0);
  const compiled = RE2JS.compile(source, flags);
  return {
    test: (text) => compiled.test(text),
    find: (text) => {
      const matcher = compiled.matcher(text);
      return matcher.find() ? (matcher.group() ?? '') : null;
    },
  };
}

/**
 * Why RE2 cannot run `source` (a sentence that follows the field's name), or null when it can.
 * The wording names the construct, so that whoever typed it knows what to change.
 */
export function userRegexProblem(source: string): string | null {
  try {
    RE2JS.compile(source);
    return null;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (/invalid escape sequence: `\\(?:[1-9]|k)/.test(detail))
      return 'uses a backreference, which the server does not run: its regular expressions run in linear time (RE2)';
    if (/`\(\?<?[=!]/.test(detail))
      return 'uses lookahead or lookbehind, which the server does not run: its regular expressions run in linear time (RE2)';
    return `cannot be run by the server's linear-time regular expressions (RE2): ${detail.replace(/^error parsing regexp: /, '')}`;
  }
}
