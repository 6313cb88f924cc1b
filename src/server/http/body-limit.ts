/** Spec §7 and SECURITY.md 21: bodies over 1 MB are refused with 413, urlencoded and multipart alike. */
export const BODY_LIMIT = 1024 * 1024;
