/**
 * Spec §4.5: "If no HTML content is given, it is generated automatically". The reverse (a plain
 * version of an HTML-only message) keeps the archive's content_plain useful for search and digests.
 * Both run on untrusted input of up to the 1 MB body limit, so they scan linearly: no regular
 * expression here can backtrack over the whole text.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Plain text → HTML: escaped; blank lines separate paragraphs, single line breaks become <br>. */
export function plainToHtml(plain: string): string {
  return plain
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).split('\n').join('<br>\n')}</p>`)
    .join('\n');
}

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'head', 'title', 'template']);
/** Elements that end a line or a block. */
const BREAKS: Record<string, string> = {
  br: '\n',
  p: '\n\n',
  div: '\n',
  tr: '\n',
  h1: '\n\n',
  h2: '\n\n',
  h3: '\n\n',
  h4: '\n\n',
  h5: '\n\n',
  h6: '\n\n',
  blockquote: '\n\n',
  pre: '\n\n',
  table: '\n\n',
  ul: '\n\n',
  ol: '\n\n',
  hr: '\n\n',
};

/** HTML → plain text: tags stripped, hidden elements dropped, block ends as line breaks, entities decoded. */
export function htmlToPlain(html: string): string {
  let out = '';
  let position = 0;
  const lower = html.toLowerCase();
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) {
      out += html.slice(position);
      break;
    }
    out += html.slice(position, open);
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      position = end === -1 ? html.length : end + 3;
      continue;
    }
    if (!/[A-Za-z/!?]/.test(html[open + 1] ?? '')) {
      // As in HTML, a "<" that starts no tag ("a < b") is text.
      out += '<';
      position = open + 1;
      continue;
    }
    const close = html.indexOf('>', open + 1);
    if (close === -1) {
      // A lone "<" is text, not a tag.
      out += html.slice(open);
      break;
    }
    const tag = /^<\/?\s*([a-zA-Z][a-zA-Z0-9]*)/.exec(html.slice(open, Math.min(close, open + 40)));
    const name = tag?.[1]?.toLowerCase() ?? '';
    const closing = html[open + 1] === '/';
    position = close + 1;
    if (!closing && HIDDEN.has(name)) {
      const end = lower.indexOf(`</${name}`, position);
      const endClose = end === -1 ? -1 : html.indexOf('>', end);
      position = endClose === -1 ? html.length : endClose + 1;
      continue;
    }
    if (name === 'li' && !closing) out += '\n- ';
    else if (BREAKS[name] && (closing || name === 'br' || name === 'hr')) out += BREAKS[name];
  }
  return decodeEntities(out)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Character references (`&amp;`, `&#72;`, `&#x49;`) as the characters they stand for; unknown ones kept. */
export function decodeEntities(text: string): string {
  return text.replace(
    /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g,
    (entity, body: string) => {
      if (body.startsWith('#')) {
        const code =
          body[1] === 'x' || body[1] === 'X'
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10);
        return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
          ? String.fromCodePoint(code)
          : entity;
      }
      return NAMED[body.toLowerCase()] ?? entity;
    },
  );
}

/**
 * Whether a message's HTML refers to `address`: as written, or with its character references
 * decoded as a browser reads an attribute. The image proxies fetch only such addresses, so they are
 * no open relay for whoever may read messages.
 */
export function refersToAddress(html: string, address: string): boolean {
  return address !== '' && (html.includes(address) || decodeEntities(html).includes(address));
}
