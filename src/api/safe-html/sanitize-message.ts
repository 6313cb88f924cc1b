import type { DOMPurify, UponSanitizeAttributeHook } from 'dompurify';
import { formatDeclarations, safeDeclarations, STYLE_ATTRIBUTE } from './inline-style.ts';
import { withoutParseTimeMarkup } from './without-parse-time-markup.ts';

/**
 * The rules for untrusted message HTML (SECURITY.md 12, 13, 40, 48), in one place for both sides:
 * the dashboard runs them with `DOMPurify(window)` (src/web/components/safe-html), the archive's
 * public pages with `DOMPurify(new JSDOM('').window)` (src/server/public/archive). Isomorphic: the
 * caller brings the DOMPurify instance, this module touches no DOM of its own.
 */

/** Attributes whose URL the browser fetches by itself (a link's `href` waits for a click). */
const RESOURCE_ATTRIBUTES = new Set([
  'src',
  'srcset',
  'background',
  'poster',
  'xlink:href',
  'action',
]);
/** The one kind of resource URL that needs no request and that the CSP allows (SECURITY.md 24). */
const DATA_URL = /^data:/i;
/** An image address a message may name, fetched only through the server (SECURITY.md 13). */
const REMOTE_URL = /^https?:\/\//i;
/**
 * Where a link may lead: another site, a mail address, a place in the message. A relative link
 * means nothing in a mail, and would open a page of the dashboard's own origin in the frame.
 */
const LINK_URL = /^(?:https?:\/\/|mailto:|#)/i;

/**
 * Images of the message to show, fetched beforehand: remote address (as the HTML writes it) →
 * `data:` URL. Absent or empty: every remote image stays blocked.
 */
export type ShownImages = ReadonlyMap<string, string>;

/**
 * Sanitizes untrusted HTML with `purify` (SECURITY.md 12: `USE_PROFILES: {html: true}`). Remote
 * content is dropped during sanitizing, never by editing the output (SECURITY.md 13): resource
 * URLs other than `data:`, `<link>`/`<style>`, and style declarations that load or hide something
 * (inline-style.ts: the styles wait in STYLE_ATTRIBUTE, as the frame inherits the page's CSP,
 * which refuses inline style). An `<img>` whose address is in `shown` gets that `data:` URL
 * instead, in the same pass, so DOMPurify's own URL rules still judge it. `blocked` receives the
 * remote image addresses left out. `purify` keeps the rules' hook: make one per call (a DOMPurify
 * instance is cheap; its window is not). Hooks the caller added to it before run first.
 */
export function sanitizeMessageHtml(
  purify: DOMPurify,
  html: string,
  shown: ShownImages,
  blocked?: Set<string>,
): string {
  const hook: UponSanitizeAttributeHook = (node, data) => {
    const name = data.attrName.toLowerCase();
    if (name === STYLE_ATTRIBUTE) {
      data.attrValue = formatDeclarations(safeDeclarations(data.attrValue));
      if (data.attrValue === '') data.keepAttr = false;
      return;
    }
    if (name === 'href' && !LINK_URL.test(data.attrValue.trim())) {
      data.keepAttr = false;
      return;
    }
    if (!RESOURCE_ATTRIBUTES.has(name)) return;
    const value = data.attrValue.trim();
    if (DATA_URL.test(value)) return;
    const image = node.nodeName === 'IMG' && name === 'src' && REMOTE_URL.test(value);
    const substitute = image ? shown.get(value) : undefined;
    if (substitute) {
      data.attrValue = substitute;
      return;
    }
    if (image) blocked?.add(value);
    data.keepAttr = false;
  };
  purify.addHook('uponSanitizeAttribute', hook);
  // Parsing would report each handler and style as a CSP violation; see without-parse-time-markup.ts.
  return purify.sanitize(withoutParseTimeMarkup(html), {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'link', 'base', 'meta'],
    FORBID_ATTR: ['style'],
  });
}
