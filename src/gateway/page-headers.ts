/**
 * SECURITY.md 24: the headers of every page of the dashboard, whoever serves it (the gateway, or
 * the reference server, which imports them from here), and of the server's sign-in pages. Message
 * content is shown in `srcdoc` frames, so no frame source is needed.
 */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; img-src 'self' data:",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Every JSON answer: never sniffed as something else, never kept by a cache. */
export const API_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};
