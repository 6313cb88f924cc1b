import type SqliteDatabase from 'better-sqlite3';

/**
 * The functions the schema's SQLite triggers call, registered on every connection that writes
 * contacts: the server's (db/database.ts) and any tool that writes behind its back. A connection
 * without them fails on the trigger rather than leave an index behind its texts.
 */

/** The name under which `sqliteGramText` is registered (migration 2026-11-27T0000). */
export const SQLITE_GRAMS_FUNCTION = 'listkeeper_grams_text';

/**
 * The text the index of short search terms is given for a contact's search text: each character
 * followed by the next one, separated by spaces (`Xu Li` → `Xu u  L Li i`).
 */
export function sqliteGramText(text: string): string {
  const characters = Array.from(text);
  return characters.map((character, at) => character + (characters[at + 1] ?? '')).join(' ');
}

export function registerSqliteFunctions(file: SqliteDatabase.Database): void {
  file.function(SQLITE_GRAMS_FUNCTION, { deterministic: true }, (text: unknown) =>
    sqliteGramText(String(text)),
  );
}
