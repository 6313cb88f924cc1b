import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * PostgreSQL: the trigram index of `contact_search` over the text alone, and a b-tree over
 * (account_id, contact_id) beside it (issue 16 §3, spec §4.1 at a million contacts).
 *
 * Migration 2026-11-24T0100 put the account into the trigram index (btree_gin). Every search then
 * read the whole posting list of its account's entry, one item per contact, whatever the term: it
 * was most of the index work (100,000 contacts: 56 of the 65 index buffers an address read, and
 * 9 of the 10 ms a broad term's index scan took), and it grows with the account.
 *
 * A search stays confined to its account (repositories/contact-search.repository.ts), now by the
 * cheaper of two plans that PostgreSQL chooses with the account's statistics: the term's trigram
 * entries (which an account with a large share of the contacts mostly owns itself) or the
 * account's own rows from the b-tree, in contact order, each compared with the term (a small
 * account: its own few rows, however many contacts match elsewhere). When both narrow, it combines
 * them (BitmapAnd) and reads only the account's matching rows. The b-tree also gives a search its
 * first page in id order without sorting.
 *
 * SQLite: nothing (its index is keyed by account, migration 2026-11-24T0100).
 */
export function contactSearchAccountIndex(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`create index contact_search_account on contact_search (account_id, contact_id)`.execute(
        db,
      );
      await replaceTrigramIndex(db, 'search_text gin_trgm_ops');
      await sql`analyze contact_search`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`drop index if exists contact_search_account`.execute(db);
      const btreeGin = await sql`select 1 from pg_extension where extname = 'btree_gin'`.execute(
        db,
      );
      await replaceTrigramIndex(
        db,
        btreeGin.rows.length > 0
          ? 'account_id, search_text gin_trgm_ops'
          : 'search_text gin_trgm_ops',
      );
    },
  };
}

/** The trigram index with these columns, when pg_trgm is there (migration 0100 may have found none). */
async function replaceTrigramIndex(db: Kysely<unknown>, columns: string): Promise<void> {
  await sql`drop index if exists contact_search_trgm`.execute(db);
  const trigram = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trigram.rows.length === 0) return;
  await sql
    .raw(`create index contact_search_trgm on contact_search using gin (${columns})`)
    .execute(db);
}
