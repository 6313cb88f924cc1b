/**
 * Spec §4.1 `search`, as the terms the server looks up: the text split at white space, each word a
 * case-insensitive substring that every contact found holds in some property ("hypatia alexandr"
 * finds Hypatia Alexandrinus, and so does "alexandr hypatia").
 *
 * Every word counts, whole: dropping or cutting one would find contacts that do not hold it. The
 * work is bounded by the contract instead (SEARCH_MAX_LENGTH, issue 16: a 14 kB term held the
 * server for 31 s), by how much of a long term the index looks up
 * (repositories/contact-search.repository.ts), and, on SQLite, runs off the event loop.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  // U+0000 separates words too: no stored text holds it (PostgreSQL's text cannot).
  for (const [word] of text.toLowerCase().matchAll(/[^\s\0]+/gu)) {
    if (!terms.includes(word)) terms.push(word);
  }
  // A term within another adds nothing: whatever holds "torres" holds "torr".
  return terms.filter(
    (term, index) => !terms.some((other, at) => at !== index && other.includes(term)),
  );
}
