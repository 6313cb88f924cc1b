/**
 * Spec §2.4 `archive_spammode`: no full address anywhere on an archive page (SECURITY.md 48). An
 * address keeps its local part and loses its domain, `ann@example.org` → `ann@…`, so a reader
 * still sees who wrote while a harvester finds no address. The domain goes (not the local part)
 * because HTML may split an address across elements: whatever text follows an `@` in the same
 * text is hidden, and text in the next element then follows `…`, never the `@`.
 *
 * The `@` is found in the forms a message may write it in: as itself, full-width, small, percent-
 * encoded (`%40`, in URLs), as a character reference (`&#64;`, `&#x40;`, `&commat;`: in plain text,
 * or double-encoded in HTML, where the parser has already decoded a single one), or as a JavaScript
 * escape; and the dots of the domain likewise.
 */
const AT = String.raw`(?:@|\uFF20|\uFE6B|%40|&#0*64;|&#[xX]0*40;|&commat;|\\u0040|\\x40)`;
const DOMAIN_CHARACTER = String.raw`(?:[\p{L}\p{N}\p{M}._~%+-]|&#0*46;|&#[xX]0*2[eE];|&period;)`;
const ADDRESS_TAIL = new RegExp(`${AT}${DOMAIN_CHARACTER}*`, 'giu');

export const HIDDEN_DOMAIN = '@…';

export function hideAddresses(text: string): string {
  return text.replace(ADDRESS_TAIL, HIDDEN_DOMAIN);
}

/** The text as an archive page of the list shows it. */
export function shownText(text: string, spammode: boolean): string {
  return spammode ? hideAddresses(text) : text;
}
