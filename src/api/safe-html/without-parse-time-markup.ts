import { parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5';
import { STYLE_ATTRIBUTE } from './inline-style.ts';

type Node = DefaultTreeAdapterMap['node'];

/** Elements whose mere parsing in a page with our CSP is reported as a violation. */
const REPORTED_ELEMENTS = new Set(['style', 'base']);
/** Attributes likewise: event handlers (inline style is moved, below). */
const isReportedAttribute = (name: string) => /^on/i.test(name);

/**
 * Untrusted HTML with the markup that a browser acts on *while parsing* taken out: inline event
 * handler attributes, `<style>` and `<base>` elements, in every namespace. A `style` attribute is
 * moved to STYLE_ATTRIBUTE (inline-style.ts: the frame applies what the sanitizer keeps of it by
 * CSSOM); one the message itself wrote under that name is dropped.
 *
 * Why: DOMPurify parses its input into an inert document of our own window. Scripting is disabled
 * there, so nothing runs (SECURITY.md 12 holds without this), but Chromium still checks an
 * `<img onerror>`'s handler or a `<style>` against the page's CSP and reports a violation for each
 * one (cure53/DOMPurify#900); the same for a `<base>` and every `style` attribute. SECURITY.md 24 asks for zero violations, and a deployment with CSP
 * reporting would be flooded by every newsletter. parse5 implements the HTML parsing algorithm in
 * plain JavaScript, with no DOM, so nothing is checked or reported here. This is not the sanitizer:
 * DOMPurify still sanitizes the result, and everything removed here it would remove as well.
 * Scripting is off, as in DOMPurify's document and in the sandboxed frame, so `<noscript>`
 * content is parsed as markup by all three.
 */
export function withoutParseTimeMarkup(html: string): string {
  const fragment = parseFragment(html, { scriptingEnabled: false });
  // An explicit stack: hostile input may nest deeper than the call stack.
  const pending: Node[] = [fragment];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (!('childNodes' in node)) continue;
    node.childNodes = node.childNodes.filter(
      (child) => !('tagName' in child && REPORTED_ELEMENTS.has(child.tagName.toLowerCase())),
    );
    if ('attrs' in node) {
      const style = node.attrs.find((attr) => attr.name.toLowerCase() === 'style');
      node.attrs = node.attrs.filter((attr) => {
        const name = attr.name.toLowerCase();
        return !isReportedAttribute(name) && name !== 'style' && name !== STYLE_ATTRIBUTE;
      });
      if (style) node.attrs.push({ name: STYLE_ATTRIBUTE, value: style.value });
    }
    pending.push(...node.childNodes);
    if ('content' in node) pending.push(node.content); // <template>
  }
  return serialize(fragment);
}
