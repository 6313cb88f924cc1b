/** SECURITY.md 17: the body fields a write left out, so that a developer can see them. */
export const IGNORED_FIELDS_HEADER = 'x-ignored-fields';
const IGNORED_FIELDS_SHOWN = 50;
const IGNORED_NAME_MAX_LENGTH = 100;

/**
 * The ignored names separated by ", ". A name keeps its printable ASCII; a space, a comma, `%`,
 * `"` and anything else are percent-encoded as UTF-8 (so any name makes a valid header, and a comma
 * in a name cannot split it); an empty name shows as `""`. Bounded: at most 50 names of at most 100
 * characters, then `…` (as `%E2%80%A6`, to stay ASCII).
 */
export function ignoredFieldsHeader(names: readonly string[]): string {
  const shown = names.slice(0, IGNORED_FIELDS_SHOWN).map((name) => {
    if (name === '') return '""';
    const cut = [...name].slice(0, IGNORED_NAME_MAX_LENGTH).join('');
    return (
      cut.toWellFormed().replace(HEADER_UNSAFE, encodeURIComponent) +
      (cut.length < name.length ? ELLIPSIS : '')
    );
  });
  if (names.length > IGNORED_FIELDS_SHOWN) shown.push(ELLIPSIS);
  return shown.join(', ');
}

/** Every character but printable ASCII other than `,`, `%` and `"` (pairs of surrogates whole). */
const HEADER_UNSAFE = /[^\x21-\x7e]|[,%"]/gu;
const ELLIPSIS = '%E2%80%A6';
