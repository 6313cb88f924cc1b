import './safe-html-frame.css';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { withoutParseTimeMarkup } from './without-parse-time-markup.ts';

/** A URL the page's CSP allows without a request to anyone else (SECURITY.md 13, 24). */
const LOCAL_URL = /^(?:data:|#|cid:)/i;
const URL_ATTRIBUTES = ['src', 'srcset', 'background', 'poster', 'href', 'xlink:href', 'action'];

/**
 * Sanitizes untrusted HTML with DOMPurify (SECURITY.md 12: `USE_PROFILES: {html: true}`). Remote
 * content is dropped during sanitizing (never by editing the output): resource URLs that are not
 * `data:`, `<link>`/`<style>`, and CSS `url(…)` in style attributes (SECURITY.md 13).
 */
export function sanitizeHtml(html: string): string {
  const purify = DOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    if (name === 'href') return; // a link is not fetched; DOMPurify already refuses javascript:
    if (URL_ATTRIBUTES.includes(name) && !LOCAL_URL.test(data.attrValue.trim())) {
      data.keepAttr = false;
    }
    if (name === 'style' && /url\s*\(|@import/i.test(data.attrValue)) data.keepAttr = false;
  });
  return purify.sanitize(withoutParseTimeMarkup(html), {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'link', 'base', 'meta'],
  });
}

/**
 * THE one place the dashboard renders untrusted HTML (SECURITY.md 12): sanitized, inside an
 * `<iframe sandbox srcdoc>` without `allow-scripts` (so nothing in it runs, and it has an opaque
 * origin). ESLint allows HTML injection in this folder only.
 */
export function SafeHtmlFrame({
  html,
  title,
  className,
}: {
  html: string;
  title: string;
  className?: string;
}) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <iframe
      sandbox=""
      srcDoc={clean}
      title={title}
      className={className ? `safe-html-frame ${className}` : 'safe-html-frame'}
      referrerPolicy="no-referrer"
    />
  );
}
