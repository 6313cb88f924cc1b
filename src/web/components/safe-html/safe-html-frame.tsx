import './safe-html-frame.css';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { applyInlineStyles } from './apply-inline-styles.ts';
import { sanitizeMessageHtml, type ShownImages } from '../../../api/safe-html/sanitize-message.ts';

export type { ShownImages };

const NONE: ShownImages = new Map();

/** The sanitized HTML, as the frame renders it (previews and tests). */
export function sanitizeHtml(html: string, shown: ShownImages = NONE): string {
  return sanitizeMessageHtml(DOMPurify(window), html, shown);
}

/**
 * The remote images (`<img src="http…">`) the frame blocks in `html`, in document order, each
 * once: what "show images" would fetch.
 */
export function remoteImagesIn(html: string): string[] {
  const blocked = new Set<string>();
  sanitizeMessageHtml(DOMPurify(window), html, NONE, blocked);
  return [...blocked];
}

/**
 * THE one place the dashboard renders untrusted HTML (SECURITY.md 12): sanitized, inside an
 * `<iframe sandbox srcdoc>` without `allow-scripts`, so nothing in it runs. `allow-same-origin`
 * (never with `allow-scripts`) lets this page reach the frame's document to apply the kept inline
 * styles through CSSOM once it has loaded; with no script in the frame, its origin gives the
 * message nothing, and its links lead only off the origin (LINK_URL). ESLint allows HTML injection
 * in this folder only.
 */
export function SafeHtmlFrame({
  html,
  title,
  className,
  images = NONE,
}: {
  html: string;
  title: string;
  className?: string;
  images?: ShownImages;
}) {
  // The rules are the contract's (src/api/safe-html), run by a DOMPurify of this window made for
  // the call (the rules add a hook to it).
  const clean = useMemo(() => sanitizeMessageHtml(DOMPurify(window), html, images), [html, images]);
  return (
    <iframe
      sandbox="allow-same-origin"
      srcDoc={clean}
      onLoad={(event) => {
        const document = event.currentTarget.contentDocument;
        if (document) applyInlineStyles(document);
      }}
      title={title}
      className={className ? `safe-html-frame ${className}` : 'safe-html-frame'}
      referrerPolicy="no-referrer"
    />
  );
}
