/**
 * SECURITY.md 24: the headers of every page the server renders or serves (dashboard, sign-in).
 * Message content is shown in `srcdoc` frames, so no frame source is needed.
 */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; img-src 'self' data:",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Every API answer: JSON that must not be sniffed, framed or cached by intermediaries. */
export const API_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};
