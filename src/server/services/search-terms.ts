/**
 * Spec §4.1 `search`, as the terms the server looks up: the text split at white space, each word a
 * case-insensitive substring that every contact found holds in some property ("hypatia alexandr"
 * finds Hypatia Alexandrinus, and so does "alexandr hypatia").
 *
 * The work a search costs grows with its terms and their length (each 3 characters are one lookup
 * in the trigram index), so both are bounded here, whatever the contract lets through (issue 16: a
 * 14 kB term held the server for 31 s): the first MAX_SEARCH_TERMS distinct words count, each cut
 * to MAX_TERM_CHARACTERS characters (a longer word then finds what its first 64 characters find).
 */
export const MAX_SEARCH_TERMS = 8;
export const MAX_TERM_CHARACTERS = 64;

export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  // U+0000 separates words too: no stored text holds it (PostgreSQL's text cannot).
  for (const [word] of text.toLowerCase().matchAll(/[^\s\0]+/gu)) {
    const term = [...word].slice(0, MAX_TERM_CHARACTERS).join('');
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === MAX_SEARCH_TERMS) break;
  }
  // A term within another adds nothing: whatever holds "torres" holds "torr".
  return terms.filter((term, index) => !terms.some((other, at) => at !== index && other.includes(term)));
}
