/**
 * A message's inline styles (`style="…"`), kept so that what a moderator sees is what members'
 * mail programs show, without letting a style fetch anything (SECURITY.md 13) or break the page's
 * CSP (SECURITY.md 24).
 *
 * The page's CSP refuses inline style, and the message frame inherits it, so a `style` attribute
 * never reaches the frame's markup: the pre-parse pass (without-parse-time-markup.ts) moves it to
 * STYLE_ATTRIBUTE, DOMPurify's hook keeps only the declarations `safeDeclarations` allows, and
 * the dashboard's frame applies them through CSSOM (`style.setProperty`), which the CSP does not
 * govern (src/web/components/safe-html/apply-inline-styles.ts). The archive's pages run no script
 * and drop them (src/server/public/archive/archive-sanitizer.ts).
 */

/** Where a style waits, from before sanitizing until the frame applies it. */
export const STYLE_ATTRIBUTE = 'data-listkeeper-style';

export interface Declaration {
  property: string;
  value: string;
  important: boolean;
}

/** Longest style attribute read; the rest of a longer one is dropped. */
const MAX_STYLE_LENGTH = 8_192;
/** A property name: standard or vendor-prefixed; custom properties (`--x`) feed `var()`, not allowed. */
const PROPERTY = /^-?[a-z][a-z0-9-]*$/;
/**
 * Values a style may not hold: functions that load a resource (`url()`, `image-set()`, `src()`…)
 * or read one from elsewhere (`var()`, `env()`, `attr()`), IE's `expression()`, and what could
 * hide one from this check: escapes, comments, `@` rules, and markup characters.
 */
const REFUSED_VALUE =
  /[\\<>@{}]|\/\*|\b(?:url|src|image|image-set|cross-fade|element|paint|var|env|attr|expression)\s*\(/i;
/** Properties that run or load something in some engine. */
const REFUSED_PROPERTIES = new Set(['behavior', '-moz-binding', 'content']);

/**
 * Splits a style attribute into declarations at the `;` outside quotes and parentheses; one pass,
 * linear in the length.
 */
function splitDeclarations(style: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let depth = 0;
  let quote = '';
  for (let i = 0; i < style.length; i++) {
    const c = style[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0) {
      parts.push(style.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(style.slice(start));
  return parts;
}

/**
 * The declarations of a style attribute that the frame may apply: well-formed, not refused by
 * REFUSED_VALUE or REFUSED_PROPERTIES. Whether a value is valid CSS is left to the browser, which
 * ignores one it cannot parse.
 *
 * @example
 * safeDeclarations('color: red; background: url(http://t.example/x.png)')
 * // → [{ property: 'color', value: 'red', important: false }]
 */
export function safeDeclarations(style: string): Declaration[] {
  const declarations: Declaration[] = [];
  for (const part of splitDeclarations(style.slice(0, MAX_STYLE_LENGTH))) {
    const colon = part.indexOf(':');
    if (colon === -1) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    let value = part.slice(colon + 1).trim();
    const important = /!\s*important$/i.test(value);
    if (important) value = value.replace(/!\s*important$/i, '').trim();
    if (!PROPERTY.test(property) || REFUSED_PROPERTIES.has(property)) continue;
    if (value === '' || REFUSED_VALUE.test(value) || value.includes('!')) continue;
    declarations.push({ property, value, important });
  }
  return declarations;
}

/** Declarations written back as one style text (what STYLE_ATTRIBUTE holds after sanitizing). */
export function formatDeclarations(declarations: readonly Declaration[]): string {
  return declarations
    .map((d) => `${d.property}: ${d.value}${d.important ? ' !important' : ''}`)
    .join('; ');
}
