/**
 * Chromium checks inline code against the page's CSP as it parses HTML, even into an inert
 * document (DOMParser, `<template>`): every event-handler attribute, `style` attribute, `<style>`
 * element and `<base>` element in a message is reported as a violation, although none runs. The
 * sanitizer removes them all anyway; removing them from the text before it is parsed keeps the
 * page's violation reports for real problems (SECURITY.md 24: zero during the e2e suite).
 *
 * Safety never depends on this step: its output is as untrusted as its input and goes to DOMPurify.
 * Markup it reads differently from a browser (mutation-XSS tricks) only means a report it did not
 * prevent. It scans once, without regular expressions that could backtrack over the text.
 */

const WHITESPACE = new Set(['\t', '\n', '\f', '\r', ' ']);
const isSpace = (c: string | undefined) => c !== undefined && WHITESPACE.has(c);

/** Attributes the CSP checks while parsing: event handlers and inline style. */
function isInlineCode(attribute: string): boolean {
  const name = attribute.toLowerCase();
  return name === 'style' || name.startsWith('on');
}

interface Tag {
  name: string;
  closing: boolean;
  /** The tag as written, without its inline-code attributes. */
  text: string;
  end: number;
}

/** The tag starting at `open` (a `<`), or null when the `<` starts no tag (`a < b`). */
function readTag(html: string, open: number): Tag | null {
  let i = open + 1;
  const closing = html[i] === '/';
  if (closing) i += 1;
  if (!/[A-Za-z]/.test(html[i] ?? '')) return null;
  const nameStart = i;
  while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') i += 1;
  const name = html.slice(nameStart, i).toLowerCase();
  let text = html.slice(open, i);
  while (i < html.length) {
    const gapStart = i;
    while (i < html.length && (isSpace(html[i]) || html[i] === '/')) i += 1;
    const gap = html.slice(gapStart, i);
    if (i >= html.length) return { name, closing, text: text + gap, end: i };
    if (html[i] === '>') return { name, closing, text: `${text}${gap}>`, end: i + 1 };
    // An attribute: its name (a leading "=" belongs to it, as in HTML), then maybe "=" and a value.
    const attributeStart = i;
    i += 1;
    while (i < html.length && !isSpace(html[i]) && !'/>='.includes(html[i] ?? '')) i += 1;
    const attribute = html.slice(attributeStart, i);
    let j = i;
    while (isSpace(html[j])) j += 1;
    if (html[j] === '=') {
      j += 1;
      while (isSpace(html[j])) j += 1;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        j = close === -1 ? html.length : close + 1;
      } else {
        while (j < html.length && !isSpace(html[j]) && html[j] !== '>') j += 1;
      }
      i = j;
    }
    text += isInlineCode(attribute) ? gap || ' ' : gap + html.slice(attributeStart, i);
  }
  return { name, closing, text, end: i };
}

const STYLE_END = /<\/style/gi;

/** `html` without event-handler and `style` attributes, `<style>` elements (content included) and `<base>`. */
export function dropInlineCode(html: string): string {
  const parts: string[] = [];
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) {
      parts.push(html.slice(position));
      break;
    }
    parts.push(html.slice(position, open));
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      position = end === -1 ? html.length : end + 3;
      parts.push(html.slice(open, position));
      continue;
    }
    const tag = readTag(html, open);
    if (!tag) {
      parts.push('<');
      position = open + 1;
      continue;
    }
    position = tag.end;
    if (tag.name === 'base') continue;
    if (tag.name === 'style') {
      if (!tag.closing) {
        // Its content goes with it, as the sanitizer drops a style sheet whole.
        STYLE_END.lastIndex = position;
        const close = STYLE_END.exec(html);
        const end = close ? html.indexOf('>', close.index) : -1;
        position = end === -1 ? html.length : end + 1;
      }
      continue;
    }
    parts.push(tag.text);
  }
  return parts.join('');
}
