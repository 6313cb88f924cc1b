import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import {
  oneAtATimePerAccount,
  readPoolOf,
  type PageAnswer,
  type PageJob,
  type Statement,
} from '../db/heavy-reader.ts';
import { SQLITE_KEY_FACTOR } from '../db/migrations/2026-11-24T0100-contact-search.ts';
import type { Database } from '../db/schema.ts';

/**
 * Spec §4.1 get many, as contact ids: one page of the contacts a query selects, and their count.
 * The search tables and their triggers are migration 2026-11-24T0100's; every statement here is
 * confined to the account by the index it reads. SQLite: the account's rowid range, never by
 * filtering another account's matches out. PostgreSQL: by the cheaper of the trigram index and the
 * account's own rows (migration 2026-11-25T0300), so that a search costs at most what its own
 * account's contacts cost. A term of 1 or 2 characters, which has no trigram, is looked up in the
 * index of short substrings (migration 2026-11-27T0000) instead of compared with every contact's
 * text: its count reads its matches only.
 */
export interface ContactIdQuery {
  accountId: number;
  /** Lower-cased, bounded search terms (services/search-terms.ts): every one must match. */
  terms: readonly string[];
  /** For each term, the lists the caller sees whose names contain it: their members match it. */
  termLists: readonly (readonly number[])[];
  /** spec §2.6 limit_metadata: the fields whose values may match; undefined: every field. */
  searchFieldIds?: readonly number[] | undefined;
  /** Lower-cased address: the contact holding it. */
  emailKey?: string | undefined;
  id?: number | undefined;
  /** Contacts on no list. */
  orphans: boolean;
  /** Members of this list of the account (the `list` extension of GET /contacts/). */
  listId?: number | undefined;
  limit: number;
  offset: number;
}

/**
 * The page and the count, one account's reads at a time. SQLite runs them on a reader thread
 * (db/heavy-reader.ts) unless `db` is a transaction, which must read its own writes.
 */
export function findContactIdsPage(
  db: Kysely<Database>,
  query: ContactIdQuery,
): Promise<PageAnswer> {
  // A query for one id or one address checks a contact or two: it runs at once, where it is asked.
  const few = query.id !== undefined || query.emailKey !== undefined;
  if (dialectOf(db) === 'postgres') {
    return few
      ? runPostgres(db, query)
      : oneAtATimePerAccount(db, query.accountId, () => runPostgres(db, query));
  }
  const job = sqliteJob(db, query);
  if (few) return runOnConnection(db, job);
  const pool = readPoolOf(db);
  return oneAtATimePerAccount(db, query.accountId, () =>
    pool ? pool.run(job) : runOnConnection(db, job),
  );
}

/** The account's lists, for matching search terms against their names. */
export function listNamesOfAccount(
  db: Kysely<Database>,
  accountId: number,
): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom('lists')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .execute();
}

async function runOnConnection(db: Kysely<Database>, job: PageJob): Promise<PageAnswer> {
  const run = async (statement: Statement) =>
    (
      await db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(statement.sql, [...statement.parameters]),
      )
    ).rows;
  const ids = (await run(job.page)).map((row) => Number(Object.values(row)[0]));
  const ended = ids.length < job.limit && (ids.length > 0 || job.offset === 0);
  const count = ended
    ? job.offset + ids.length
    : Number(Object.values((await run(job.count))[0] ?? {})[0] ?? 0);
  return { ids, count };
}

// --- SQLite ----------------------------------------------------------------------------------------

const KEY_FACTOR = BigInt(SQLITE_KEY_FACTOR);

/**
 * How much of a term the trigram index looks up: each 3 characters of a phrase are one more
 * doclist to walk (a 256-character `mail.exa…` took 254 ms over 50,000 contacts, its first 64
 * characters 76 ms). What was left out is then compared whole on the few contacts found.
 */
export const MAX_LOOKUP_CHARACTERS = 64;

/**
 * How much of an address the indexes look up: the end of its local part and the `@`. Its domain's
 * trigrams (`exa`, `.ne`…) are in nearly every contact, and every trigram of a long local part is
 * one more posting list to read (`farah.chowdhury.199`: 17 of them), while the few characters
 * before the `@` already narrow the contacts to a handful (`ury.199@`: 1 of 100,000).
 */
const ADDRESS_LOOKUP_CHARACTERS = 8;

/** The part of a term that the trigram index looks up (both databases). */
export function lookupPart(term: string): string {
  const at = term.indexOf('@');
  if (at >= 0) {
    const window = [...term.slice(0, at + 1)].slice(-ADDRESS_LOOKUP_CHARACTERS);
    // `a@…`: too little before the `@` to look up; the whole term is then (cut to size).
    if (window.length >= 4) return window.join('');
  }
  return [...term].slice(0, MAX_LOOKUP_CHARACTERS).join('');
}

/** An FTS5 query: every term as a phrase, which the trigram index matches as a substring. */
function ftsQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${lookupPart(term).replaceAll('"', '""')}"`).join(' AND ');
}

/**
 * A GLOB pattern matching text that holds `term` in any case: a term of under 3 characters beside
 * a narrower source, one that no index can look up, and what must be re-checked (the values a
 * limited key may see) are compared with it. GLOB, unlike SQLite's LIKE, compares every
 * character, so `[éÉ]` folds what LIKE would not.
 */
export function globPattern(term: string): string {
  let pattern = '*';
  for (const char of term) {
    const variants = new Set(
      [char, char.toLowerCase(), char.toUpperCase()].filter((v) => [...v].length === 1),
    );
    if (variants.size > 1) pattern += `[${[...variants].join('')}]`;
    else if (char === '*' || char === '?' || char === '[') pattern += `[${char}]`;
    else pattern += char;
  }
  return `${pattern}*`;
}

/** Whether the trigram index can look a term up (it indexes every 3 characters). */
function indexable(term: string): boolean {
  return [...term].length >= 3;
}

/**
 * Whether SQLite's index of short substrings (migration 2026-11-27T0000) can look a term up: 1 or
 * 2 characters that its tokenizer keeps whole. A control or format character (or one that SQLite's
 * older Unicode tables might count as a separator) would be dropped from the query and match more:
 * such a rare term is compared with each contact's text, as before.
 */
function gramIndexable(term: string): boolean {
  return !indexable(term) && /^[\p{L}\p{M}\p{N}\p{P}\p{S}]+$/u.test(term);
}

/**
 * An FTS5 query of the short-substring index: every term as a token (`"xu"`), or as a token's
 * first character (`"x" *`, the table's prefix index). The index folds case, as the trigram one.
 */
function gramQuery(terms: readonly string[]): string {
  return terms
    .map((term) => {
      const token = `"${term.replaceAll('"', '""')}"`;
      return [...term].length === 1 ? `${token} *` : token;
    })
    .join(' AND ');
}

interface Source {
  /** The FROM clause. */
  from: RawBuilder<unknown>;
  /** The contact's key (account_id * 2^31 + id) as an expression over `from`. */
  key: RawBuilder<unknown>;
  /** What the page selects (the contact id) and orders by (in the source's own order). */
  select: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
  conditions: RawBuilder<unknown>[];
}

function sqliteJob(db: Kysely<Database>, query: ContactIdQuery): PageJob {
  const base = BigInt(query.accountId) * KEY_FACTOR;
  const last = base + KEY_FACTOR - 1n;
  const terms = query.terms.map((term, index) => ({ term, lists: query.termLists[index] ?? [] }));
  const plain = terms.filter(({ lists }) => lists.length === 0);
  const longTerms = plain.filter(({ term }) => indexable(term)).map(({ term }) => term);
  const gramTerms = plain.filter(({ term }) => gramIndexable(term)).map(({ term }) => term);
  // Short terms no index can look up (rare: see gramIndexable).
  const shortTerms = plain
    .filter(({ term }) => !indexable(term) && !gramIndexable(term))
    .map(({ term }) => term);
  const listed = terms.filter(({ lists }) => lists.length > 0);

  const ftsSet = (phrase: string) =>
    sql`select rowid as key from contact_search_fts where contact_search_fts match ${phrase} and rowid between ${base} and ${last}`;
  const gramSet = (term: string) =>
    sql`select rowid as key from contact_search_grams where contact_search_grams match ${gramQuery([term])} and rowid between ${base} and ${last}`;
  // On a contact or two (an id, an address), the index is asked about each; on more, once for all.
  const few = query.id !== undefined || query.emailKey !== undefined;
  // A short term beside a source that narrows (another term, an id, a list) is compared with the
  // text of each contact found: the index would give all its matches in the account ("a").
  const textCondition = (key: RawBuilder<unknown>, term: string) => {
    if (!indexable(term))
      return sql`exists (select 1 from contact_search s where s.key = ${key} and s.search_text glob ${globPattern(term)})`;
    return few
      ? sql`exists (select 1 from contact_search_fts f where contact_search_fts match ${ftsQuery([term])} and f.rowid = ${key})`
      : sql`${key} in (${ftsSet(ftsQuery([term]))})`;
  };
  const memberCondition = (key: RawBuilder<unknown>, lists: readonly number[]) =>
    sql`exists (select 1 from memberships m where m.contact_id = ${key} - ${base} and m.list_id in (${sql.join([...lists])}))`;

  // The source: the narrowest set the query names, read in key order.
  let source: Source;
  let consumed:
    'id' | 'email' | 'list' | 'long' | 'grams' | 'listed' | 'orphans' | 'short' | 'none';
  const keyed = (
    from: RawBuilder<unknown>,
    key: RawBuilder<unknown>,
    conditions: RawBuilder<unknown>[],
  ): Source => ({
    from,
    key,
    select: sql`${key} - ${base}`,
    order: key,
    conditions,
  });
  if (query.id !== undefined) {
    consumed = 'id';
    source = keyed(sql`contact_search`, sql.ref('contact_search.key'), [
      sql`contact_search.key = ${base + BigInt(query.id)}`,
    ]);
  } else if (query.emailKey !== undefined) {
    consumed = 'email';
    source = keyed(
      sql`(select ${base} + contact_id as key from emails where account_id = ${query.accountId} and email_key = ${query.emailKey}) as d`,
      sql.ref('d.key'),
      [],
    );
  } else if (query.listId !== undefined) {
    consumed = 'list';
    source = keyed(
      sql`(select ${base} + contact_id as key from memberships where list_id = ${query.listId}) as d`,
      sql.ref('d.key'),
      [],
    );
  } else if (longTerms.length > 0) {
    consumed = 'long';
    source = keyed(sql`contact_search_fts`, sql.ref('contact_search_fts.rowid'), [
      sql`contact_search_fts match ${ftsQuery(longTerms)}`,
      sql`contact_search_fts.rowid between ${base} and ${last}`,
    ]);
  } else if (gramTerms.length > 0) {
    consumed = 'grams';
    source = keyed(sql`contact_search_grams`, sql.ref('contact_search_grams.rowid'), [
      sql`contact_search_grams match ${gramQuery(gramTerms)}`,
      sql`contact_search_grams.rowid between ${base} and ${last}`,
    ]);
  } else if (listed[0]) {
    consumed = 'listed';
    const { term, lists } = listed[0];
    const text = indexable(term)
      ? ftsSet(ftsQuery([term]))
      : gramIndexable(term)
        ? gramSet(term)
        : sql`select key from contact_search where key between ${base} and ${last} and search_text glob ${globPattern(term)}`;
    source = keyed(
      sql`(${text} union select ${base} + contact_id from memberships where list_id in (${sql.join([...lists])})) as d`,
      sql.ref('d.key'),
      [],
    );
  } else if (query.orphans) {
    consumed = 'orphans';
    source = keyed(sql`contact_orphans`, sql.ref('contact_orphans.key'), [
      sql`contact_orphans.key between ${base} and ${last}`,
    ]);
  } else if (shortTerms.length > 0) {
    consumed = 'short';
    source = keyed(sql`contact_search`, sql.ref('contact_search.key'), [
      sql`contact_search.key between ${base} and ${last}`,
      ...shortTerms.map((term) => sql`contact_search.search_text glob ${globPattern(term)}`),
    ]);
  } else {
    consumed = 'none';
    source = {
      from: sql`contacts`,
      key: sql`(${base} + contacts.id)`,
      select: sql.ref('contacts.id'),
      order: sql.ref('contacts.id'),
      conditions: [sql`contacts.account_id = ${query.accountId}`],
    };
  }

  // Everything else the query asks, checked on each contact of the source.
  const { key, conditions } = source;
  if (query.emailKey !== undefined && consumed !== 'email') {
    conditions.push(
      sql`${key} in (select ${base} + contact_id from emails where account_id = ${query.accountId} and email_key = ${query.emailKey})`,
    );
  }
  if (query.listId !== undefined && consumed !== 'list') {
    conditions.push(memberCondition(key, [query.listId]));
  }
  if (query.orphans && consumed !== 'orphans') {
    conditions.push(sql`exists (select 1 from contact_orphans o where o.key = ${key})`);
  }
  if (consumed !== 'long') for (const term of longTerms) conditions.push(textCondition(key, term));
  // The index looked up part of a term: the whole of it is compared here. (A list name is never
  // that long and holds no `@`: a term that matched one is looked up whole.)
  for (const term of longTerms.filter((term) => lookupPart(term) !== term)) {
    conditions.push(
      sql`exists (select 1 from contact_search s where s.key = ${key} and s.search_text glob ${globPattern(term)})`,
    );
  }
  if (consumed !== 'grams') for (const term of gramTerms) conditions.push(textCondition(key, term));
  if (consumed !== 'short')
    for (const term of shortTerms) conditions.push(textCondition(key, term));
  listed.forEach(({ term, lists }, index) => {
    if (consumed === 'listed' && index === 0) return;
    conditions.push(sql`(${textCondition(key, term)} or ${memberCondition(key, lists)})`);
  });
  // A limited key must not find contacts through values it cannot see: every term must match what
  // it sees (or a list it sees).
  const visibleFields = query.searchFieldIds;
  if (visibleFields !== undefined) {
    for (const { term, lists } of terms) {
      const pattern = globPattern(term);
      const values =
        visibleFields.length > 0
          ? sql` or exists (select 1 from contact_values v where v.contact_id = c.id
              and v.field_id in (${sql.join([...visibleFields])}) and v.value glob ${pattern})`
          : sql``;
      const visible = sql`exists (select 1 from contacts c where c.id = ${key} - ${base} and (
        (c.firstname || ' ' || c.surname || char(10) || c.notes || char(10) || coalesce(c.ccid, '')) glob ${pattern}
        or exists (select 1 from emails e where e.contact_id = c.id and e.email glob ${pattern})${values}))`;
      conditions.push(
        lists.length > 0 ? sql`(${visible} or ${memberCondition(key, lists)})` : visible,
      );
    }
  }

  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const compile = (builder: RawBuilder<unknown>): Statement => {
    const compiled = builder.compile(db);
    return { sql: compiled.sql, parameters: compiled.parameters };
  };
  // Without a filter the account's size is kept by triggers (migration 0410).
  const count =
    consumed === 'none' && conditions.length === 1
      ? sql`select coalesce((select contacts from contact_counts where account_id = ${query.accountId}), 0)`
      : sql`select count(*) from ${source.from} ${where}`;
  return {
    page: compile(
      sql`select ${source.select} from ${source.from} ${where} order by ${source.order} limit ${query.limit} offset ${query.offset}`,
    ),
    count: compile(count),
    limit: query.limit,
    offset: query.offset,
  };
}

// --- PostgreSQL ------------------------------------------------------------------------------------

/** Escapes the LIKE wildcards (and the escape character) of user text. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern for a term: search_text is lower-cased by listkeeper_fold, as terms are. */
function likePattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/**
 * A short term found in at least this share of all contacts is compared with the text of each of
 * the account's contacts rather than looked up: reading most of them is the work either way, and
 * where the planner would read them all it would compute each text's substrings to check the
 * index's condition (`e` over 100,000 contacts: 1.3 s, against 40 ms for the comparison alone).
 * Below it, the index: `xu` (2 % of the demo's contacts) 1.3 ms, `.c` (31 %) 39 ms.
 */
const POSTGRES_BROAD_SHARE = 0.25;

/**
 * The page of a short term reads the account's ids in order, comparing each text with LIKE, when
 * by its share the page ends within this many contacts (share × this ≥ offset + limit: a first
 * page of 100 for a term in 0.5 % of the contacts or more). `xu` (2 %) over 1M contacts took 45 ms
 * for its first page and count when the page too gathered every match from the index and sorted
 * them; `torres`, which the planner reads in id order, 25. Its count, and deeper pages, still read
 * the index.
 */
const POSTGRES_PAGE_WALK_ROWS = 20_000;

/**
 * The share of all contacts holding each short term, for the terms among the most common
 * substrings that ANALYZE keeps statistics of (with their share); a term not among them is rarer.
 * Without statistics (a new database) none is known: the index is right for a few contacts.
 */
async function postgresTermShares(
  db: Kysely<Database>,
  terms: readonly string[],
): Promise<Map<string, number>> {
  if (terms.length === 0) return new Map();
  const { rows } = await sql<{ term: string; share: number }>`select x.term, x.share from pg_stats,
      unnest(most_common_elems::text::text[], most_common_elem_freqs) as x(term, share)
    where schemaname = current_schema() and tablename = 'contact_search_grams'
      and x.term = any(${[...terms]}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.term, Number(row.share)]));
}

async function runPostgres(db: Kysely<Database>, query: ContactIdQuery): Promise<PageAnswer> {
  const a = query.accountId;
  const terms = query.terms.map((term, index) => ({ term, lists: query.termLists[index] ?? [] }));
  const like = (column: RawBuilder<unknown>, term: string) =>
    sql`${column} like ${likePattern(term)} escape '\\'`;
  const members = (contact: RawBuilder<unknown>, lists: readonly number[]) =>
    sql`${contact} in (select contact_id from memberships where list_id = any(${[...lists]}::integer[]))`;
  const text = sql.ref('s.search_text');
  // A term of 1 or 2 characters has no trigram: the index of short substrings (migration
  // 2026-11-27T0000) finds it, unless it is in a quarter of the contacts or more
  // (POSTGRES_BROAD_SHARE), or the page reads the ids in order (POSTGRES_PAGE_WALK_ROWS). The
  // text is compared first: where the planner reads the account's rows (or another term's matches)
  // instead, each is compared before the substrings of its text are computed (48 µs a text against
  // 0.6 for the comparison). With `strpos`, not LIKE: no index looks a function up (LIKE needed
  // `|| ''`, or the trigram index would read every entry for a pattern without a trigram), and it
  // neither copies the text nor reads a pattern. Over the 2,114 contacts holding `xu` in 100,000,
  // the count took 1.8 ms against 2.2 (issue 28 item 7). Both texts are lower-cased already.
  const shares = await postgresTermShares(
    db,
    terms.map(({ term }) => term).filter((term) => !indexable(term)),
  );
  const gramIndexed = (term: string, forPage: boolean) => {
    const share = shares.get(term) ?? 0;
    if (indexable(term) || share >= POSTGRES_BROAD_SHARE) return false;
    return !(forPage && share * POSTGRES_PAGE_WALK_ROWS >= query.offset + query.limit);
  };
  const grams = (term: string) =>
    sql`strpos(${text}, ${term}) > 0 and listkeeper_grams(${text}) @> ${[term]}::text[]`;
  const textMatch = (term: string, forPage: boolean) => {
    if (gramIndexed(term, forPage)) return sql`(${grams(term)})`;
    const part = lookupPart(term);
    // `|| ''` keeps the whole term out of the index condition: it is checked on each contact found.
    return part === term
      ? like(text, term)
      : sql`(${like(text, part)} and ${like(sql`(${text} || '')`, term)})`;
  };

  let from: RawBuilder<unknown>;
  let contact: RawBuilder<unknown>;
  const conditions: RawBuilder<unknown>[] = [];
  // The terms' conditions: the count's, and the page's (which may read the ids in order instead).
  const countTerms: RawBuilder<unknown>[] = [];
  const pageTerms: RawBuilder<unknown>[] = [];
  if (terms.length > 0) {
    // One trigram index scan for every term (and the account).
    from = sql`contact_search s`;
    contact = sql.ref('s.contact_id');
    conditions.push(sql`s.account_id = ${a}`);
    const termCondition = (term: string, lists: readonly number[], forPage: boolean) =>
      lists.length === 0
        ? textMatch(term, forPage)
        : !gramIndexed(term, forPage)
          ? sql`(${textMatch(term, forPage)} or ${members(contact, lists)})`
          : // An OR would hide the index from the planner: the short term's matches and the
            // members, as one set.
            sql`${contact} in (select s.contact_id from contact_search s where s.account_id = ${a} and ${grams(term)}
                union select contact_id from memberships where list_id = any(${[...lists]}::integer[]))`;
    for (const { term, lists } of terms) {
      countTerms.push(termCondition(term, lists, false));
      pageTerms.push(termCondition(term, lists, true));
    }
  } else if (query.id === undefined && query.emailKey === undefined && query.orphans) {
    from = sql`contact_orphans o`;
    contact = sql.ref('o.contact_id');
    conditions.push(sql`o.account_id = ${a}`);
  } else {
    from = sql`contacts c0`;
    contact = sql.ref('c0.id');
    conditions.push(sql`c0.account_id = ${a}`);
  }
  if (query.id !== undefined) conditions.push(sql`${contact} = ${query.id}`);
  if (query.emailKey !== undefined) {
    conditions.push(
      sql`${contact} in (select contact_id from emails where account_id = ${a} and email_key = ${query.emailKey})`,
    );
  }
  if (query.listId !== undefined) conditions.push(members(contact, [query.listId]));
  if (
    query.orphans &&
    terms.length + Number(query.id !== undefined) + Number(query.emailKey !== undefined) > 0
  ) {
    conditions.push(
      sql`exists (select 1 from contact_orphans o where o.account_id = ${a} and o.contact_id = ${contact})`,
    );
  }
  const visibleFields = query.searchFieldIds;
  if (visibleFields !== undefined) {
    for (const { term, lists } of terms) {
      const folded = (column: RawBuilder<unknown>) => like(sql`listkeeper_fold(${column})`, term);
      const values =
        visibleFields.length > 0
          ? sql` or exists (select 1 from contact_values v where v.contact_id = c.id
              and v.field_id = any(${[...visibleFields]}::integer[]) and ${folded(sql.ref('v.value'))})`
          : sql``;
      const visible = sql`exists (select 1 from contacts c where c.id = ${contact} and (
        ${folded(sql`c.firstname || ' ' || c.surname || E'\\n' || c.notes || E'\\n' || coalesce(c.ccid, '')`)}
        or exists (select 1 from emails e where e.contact_id = c.id and ${folded(sql.ref('e.email'))})${values}))`;
      conditions.push(lists.length > 0 ? sql`(${visible} or ${members(contact, lists)})` : visible);
    }
  }
  const where = sql.join([...conditions, ...countTerms], sql` and `);
  const pageWhere = sql.join([...conditions, ...pageTerms], sql` and `);
  // The page in id order, then (when it is full) the count: for a common term PostgreSQL reads the
  // ids in order and stops at the page's end (1.5 ms of CPU over 1M contacts for `torres`), for a
  // rare one it takes the few the trigram index finds; one statement for both, the matches
  // gathered and sorted, cost 12 ms more than the count alone.
  const unfiltered =
    terms.length === 0 &&
    query.id === undefined &&
    query.emailKey === undefined &&
    query.listId === undefined &&
    !query.orphans;
  const compile = (builder: RawBuilder<unknown>): Statement => {
    const compiled = builder.compile(db);
    return { sql: compiled.sql, parameters: compiled.parameters };
  };
  return runOnConnection(db, {
    page: compile(
      sql`select ${contact} from ${from} where ${pageWhere} order by ${contact} limit ${query.limit} offset ${query.offset}`,
    ),
    // Without a filter the account's size is kept by triggers (migration 0410).
    count: compile(
      unfiltered
        ? sql`select coalesce((select contacts from contact_counts where account_id = ${a}), 0)`
        : sql`select count(*) from ${from} where ${where}`,
    ),
    limit: query.limit,
    offset: query.offset,
  });
}
