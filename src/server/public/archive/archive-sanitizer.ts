import DOMPurify, { type WindowLike } from 'dompurify';
import { JSDOM } from 'jsdom';
import { STYLE_ATTRIBUTE } from '../../../api/safe-html/inline-style.ts';
import { sanitizeMessageHtml, type ShownImages } from '../../../api/safe-html/sanitize-message.ts';
import { hideAddresses } from './hide-addresses.ts';

/** The archive shows no remote image, ever: no page of it fetches one (SECURITY.md 13, 48). */
const NO_IMAGES: ShownImages = new Map();
const TEXT_NODE = 3;
const COMMENT_NODE = 8;

let window: WindowLike | undefined;

/** One jsdom window for the process (making one takes tens of milliseconds; a DOMPurify, little). */
function windowOf(): WindowLike {
  window ??= new JSDOM('').window as unknown as WindowLike;
  return window;
}

/**
 * A message's HTML for an archive page: the dashboard's rules (src/api/safe-html, SECURITY.md 12),
 * run by DOMPurify over a jsdom window, remote images held back. Two hooks of the archive's run
 * first: the kept inline styles are dropped (the dashboard applies them by script, and the archive
 * runs none; its CSP refuses inline style), and under `archive_spammode` every address is hidden
 * in text and attributes, and `mailto:` links lose their target (SECURITY.md 48). Both act while
 * DOMPurify walks the document: the output is never edited afterwards.
 */
export function sanitizeForArchive(html: string, spammode: boolean): string {
  const purify = DOMPurify(windowOf());
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === STYLE_ATTRIBUTE) {
      data.keepAttr = false;
      return;
    }
    if (!spammode) return;
    if (data.attrName === 'href' && /^\s*mailto:/i.test(data.attrValue)) {
      data.keepAttr = false;
      return;
    }
    data.attrValue = hideAddresses(data.attrValue);
  });
  if (spammode)
    purify.addHook('afterSanitizeElements', (node) => {
      if (node.nodeType === TEXT_NODE || node.nodeType === COMMENT_NODE)
        node.nodeValue = hideAddresses(node.nodeValue ?? '');
    });
  return sanitizeMessageHtml(purify, html, NO_IMAGES);
}
