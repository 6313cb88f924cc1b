/** The msg-ids a header value names, in order: `<a@b> <c@d>` → ['<a@b>', '<c@d>']. */
export function messageIdsIn(value: string | undefined): string[] {
  return value === undefined ? [] : (value.match(/<[^<>\s]+>/g) ?? []);
}
