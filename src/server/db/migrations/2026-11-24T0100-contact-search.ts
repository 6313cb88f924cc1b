import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * Spec §4.1 search at a million contacts, confined to the account in the index itself (issue 16).
 *
 * `contact_search` holds each contact's searchable text: names, notes, ccid, every address and
 * every custom value. Triggers keep it in step with the rows in the writing transaction, however
 * the change was made (a service, the CLI, a cascade from a deleted custom field): services never
 * compute it. List names are not in it: a search matches them in `lists` when it runs
 * (repositories/contact-search.repository.ts), so renaming a list with 500,000 members rewrites no
 * text and a list-limited key never finds contacts through lists it cannot see.
 *
 * `contact_orphans` holds the contacts on no list (spec §4.1 `orphans`), kept by triggers on
 * memberships: counting them had to look for the memberships of every contact (1.2 s over 1M).
 *
 * SQLite: both tables are keyed by `account_id * 2^31 + contact_id`, and the FTS5 trigram index's
 * rowid is that key, so one account's contacts are one rowid range of every doclist and a search
 * seeks into it rather than reading every tenant's entries. The index folds case itself (FTS5's
 * Unicode folding), so the text is stored as written. The old index over `contacts.search_text`
 * (migrations 0300, 0400) matched every account's contacts and then joined them.
 *
 * PostgreSQL: a trigram GIN index over (account_id, search_text) when pg_trgm and btree_gin are
 * available (the account narrows the index scan itself), over the text alone with pg_trgm only,
 * none without it (the search then scans, as before). The text is lower-cased by
 * `listkeeper_fold`, ICU's root locale when the server has it, so that case folding does not
 * depend on the cluster's locale; the server lower-cases search terms the same way (JavaScript's
 * toLowerCase follows the same Unicode mapping).
 *
 * `listkeeper.search_deferred` (PostgreSQL, `set local`) and dropping the triggers within the
 * transaction (SQLite) let the demo's bulk load fill both tables once at the end
 * (repositories/demo.repository.ts).
 */
export function contactSearch(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await sqliteUp(db);
      else await postgresUp(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await sqliteDown(db);
      else await postgresDown(db);
    },
  };
}

/** The SQLite key of a contact: its account's range, then its id (ids stay below 2^31). */
export const SQLITE_KEY_FACTOR = 2147483648;

/** Names of the SQLite triggers of this migration: the demo drops and re-creates them. */
export const SQLITE_SEARCH_TRIGGER_PREFIX = 'contact_search_';

const key = (row: string, contactId = 'id') =>
  `${row}.account_id * ${SQLITE_KEY_FACTOR} + ${row}.${contactId}`;

/**
 * The searchable text of the contact `contactId` (an SQL expression), null when it is gone. Its
 * parts come in index order (no `group_concat(… order by …)`: SQLite before 3.44, as in the
 * sqlite3 shell of Debian 12, could not even read a schema holding it).
 */
export const sqliteText = (
  contactId: string,
) => `(select t.firstname || ' ' || t.surname || char(10) || t.notes
    || char(10) || coalesce(t.ccid, '')
    || char(10) || coalesce((select group_concat(e.email, char(10)) from emails e where e.contact_id = t.id), '')
    || char(10) || coalesce((select group_concat(v.value, char(10)) from contact_values v where v.contact_id = t.id), '')
  from contacts t where t.id = ${contactId})`;

const sqliteRefresh = (
  contactId: string,
) => `update contact_search set search_text = ${sqliteText(contactId)}
  where key = (select ${key('c')} from contacts c where c.id = ${contactId});`;

/** SQL that fills both tables for the contacts with an id above `afterId` (migration, demo). */
export function sqliteBackfill(afterId: number): string[] {
  return [
    `insert into contact_search (key, search_text)
      select ${key('c')}, ${sqliteText('c.id')} from contacts c where c.id > ${afterId} order by 1`,
    `insert into contact_search_fts (rowid, search_text)
      select s.key, s.search_text from contacts c join contact_search s on s.key = ${key('c')} where c.id > ${afterId}`,
    `insert into contact_orphans (key)
      select ${key('c')} from contacts c
      where c.id > ${afterId} and not exists (select 1 from memberships m where m.contact_id = c.id) order by 1`,
  ];
}

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['contacts_fts_insert', 'contacts_fts_delete', 'contacts_fts_update']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists contacts_fts`.execute(db);
  await sql`alter table contacts drop column search_text`.execute(db);

  await sql`create table contact_search (key integer primary key, search_text text not null)`.execute(
    db,
  );
  await sql`create table contact_orphans (key integer primary key)`.execute(db);
  // columnsize=0: nothing ranks matches, so the per-row token counts would only take space.
  await sql`create virtual table contact_search_fts using fts5(search_text,
    content='contact_search', content_rowid='key', tokenize='trigram case_sensitive 0', columnsize=0)`.execute(
    db,
  );
  for (const statement of sqliteBackfill(0)) await sql.raw(statement).execute(db);

  const triggers: [string, string][] = [
    // The index follows the text.
    [
      'fts_insert',
      `after insert on contact_search begin
      insert into contact_search_fts (rowid, search_text) values (new.key, new.search_text); end`,
    ],
    [
      'fts_delete',
      `after delete on contact_search begin
      insert into contact_search_fts (contact_search_fts, rowid, search_text) values ('delete', old.key, old.search_text); end`,
    ],
    [
      'fts_update',
      `after update of search_text on contact_search when old.search_text is not new.search_text begin
      insert into contact_search_fts (contact_search_fts, rowid, search_text) values ('delete', old.key, old.search_text);
      insert into contact_search_fts (rowid, search_text) values (new.key, new.search_text); end`,
    ],
    // The text follows the contact, its addresses and its custom values.
    [
      'contact_insert',
      `after insert on contacts begin
      insert into contact_search (key, search_text) values (${key('new')}, ${sqliteText('new.id')});
      insert into contact_orphans (key) values (${key('new')}); end`,
    ],
    [
      'contact_update',
      `after update of firstname, surname, notes, ccid on contacts begin
      ${sqliteRefresh('new.id')} end`,
    ],
    // A cascade removes the contact's children after its row, before this trigger.
    [
      'contact_delete',
      `after delete on contacts begin
      delete from contact_search where key = ${key('old')};
      delete from contact_orphans where key = ${key('old')}; end`,
    ],
    ...(
      [
        ['emails', 'email'],
        ['contact_values', 'value'],
      ] as const
    ).flatMap(([table, text]): [string, string][] => [
      [`${table}_insert`, `after insert on ${table} begin ${sqliteRefresh('new.contact_id')} end`],
      [
        `${table}_update`,
        `after update of ${text}, contact_id on ${table} begin
        ${sqliteRefresh('old.contact_id')} ${sqliteRefresh('new.contact_id')} end`,
      ],
      [`${table}_delete`, `after delete on ${table} begin ${sqliteRefresh('old.contact_id')} end`],
    ]),
    // Orphans: a contact's first membership removes it, its last one's deletion adds it back.
    [
      'membership_insert',
      `after insert on memberships begin
      delete from contact_orphans where key = ${key('new', 'contact_id')}; end`,
    ],
    [
      'membership_delete',
      `after delete on memberships begin
      insert or ignore into contact_orphans (key)
        select ${key('c')} from contacts c where c.id = old.contact_id
          and not exists (select 1 from memberships m where m.contact_id = old.contact_id); end`,
    ],
  ];
  for (const [name, body] of triggers) {
    await sql.raw(`create trigger ${SQLITE_SEARCH_TRIGGER_PREFIX}${name} ${body}`).execute(db);
  }
}

async function sqliteDown(db: Kysely<unknown>): Promise<void> {
  const triggers = await sql<{ name: string }>`select name from sqlite_master
    where type = 'trigger' and name like ${`${SQLITE_SEARCH_TRIGGER_PREFIX}%`}`.execute(db);
  for (const { name } of triggers.rows) await sql`drop trigger ${sql.id(name)}`.execute(db);
  await sql`drop table contact_search_fts`.execute(db);
  await sql`drop table contact_search`.execute(db);
  await sql`drop table contact_orphans`.execute(db);
  // Migrations 0300 and 0400 as they left things; the text is filled again by the next write.
  await sql`alter table contacts add column search_text text not null default ''`.execute(db);
  await sql`create virtual table contacts_fts using fts5(
    search_text, content='contacts', content_rowid='id', tokenize='trigram case_sensitive 1')`.execute(
    db,
  );
  await sql`create trigger contacts_fts_insert after insert on contacts begin
    insert into contacts_fts(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
  await sql`create trigger contacts_fts_delete after delete on contacts begin
    insert into contacts_fts(contacts_fts, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(
    db,
  );
  await sql`create trigger contacts_fts_update after update of search_text on contacts begin
    insert into contacts_fts(contacts_fts, rowid, search_text) values ('delete', old.id, old.search_text);
    insert into contacts_fts(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
}

// --- PostgreSQL ------------------------------------------------------------------------------------

/** The searchable text of the contact row `c`, lower-cased (an SQL expression). */
export const POSTGRES_TEXT = `listkeeper_fold(c.firstname || ' ' || c.surname || E'\\n' || c.notes
    || E'\\n' || coalesce(c.ccid, '')
    || E'\\n' || coalesce((select string_agg(e.email, E'\\n' order by e.id) from emails e where e.contact_id = c.id), '')
    || E'\\n' || coalesce((select string_agg(v.value, E'\\n' order by v.field_id) from contact_values v where v.contact_id = c.id), ''))`;

/** SQL that fills both tables for the contacts with an id above `afterId` (migration, demo). */
export function postgresBackfill(afterId: number): string[] {
  return [
    `insert into contact_search (contact_id, account_id, search_text)
      select c.id, c.account_id, ${POSTGRES_TEXT} from contacts c where c.id > ${afterId}`,
    `insert into contact_orphans (account_id, contact_id)
      select c.account_id, c.id from contacts c
      where c.id > ${afterId} and not exists (select 1 from memberships m where m.contact_id = c.id)`,
  ];
}

/** Set to `on` for a transaction (`set local`), the triggers leave both tables to a backfill. */
export const POSTGRES_DEFER_SETTING = 'listkeeper.search_deferred';

const POSTGRES_FUNCTIONS = [
  'contact_search_refresh(integer[])',
  'contact_search_contacts_insert()',
  'contact_search_contacts_update()',
  'contact_search_children()',
  'contact_search_memberships()',
  'listkeeper_fold(text)',
];

const POSTGRES_TRIGGERS: [string, string][] = [
  ['contacts', 'contact_search_contacts_insert'],
  ['contacts', 'contact_search_contacts_update'],
  ...(['emails', 'contact_values'] as const).flatMap((table): [string, string][] =>
    ['insert', 'update', 'delete'].map((event) => [table, `contact_search_${table}_${event}`]),
  ),
  ['memberships', 'contact_search_memberships_insert'],
  ['memberships', 'contact_search_memberships_delete'],
];

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists contacts_search_trgm`.execute(db);
  await sql`alter table contacts drop column search_text`.execute(db);

  const icu = await sql`select 1 from pg_collation where collname = 'und-x-icu'`.execute(db);
  const fold = icu.rows.length > 0 ? `lower($1 collate "und-x-icu")` : 'lower($1)';
  await sql
    .raw(
      `create function listkeeper_fold(text) returns text language sql immutable parallel safe
    as $$ select ${fold} $$`,
    )
    .execute(db);

  await sql`create table contact_search (
    contact_id integer primary key references contacts(id) on delete cascade,
    account_id integer not null,
    search_text text not null)`.execute(db);
  await sql`create table contact_orphans (
    account_id integer not null,
    contact_id integer not null references contacts(id) on delete cascade,
    primary key (account_id, contact_id))`.execute(db);
  await sql`create index contact_orphans_contact on contact_orphans (contact_id)`.execute(db);
  for (const statement of postgresBackfill(0)) await sql.raw(statement).execute(db);
  await createPostgresTrigramIndex(db);
  // Planner statistics now, not at autovacuum's next pass: a search plans with them.
  await sql`analyze contact_search, contact_orphans`.execute(db);

  const deferred = `if current_setting('${POSTGRES_DEFER_SETTING}', true) = 'on' then return null; end if;`;
  // Locks the rows first, then reads the contact in a statement of its own: under READ COMMITTED
  // that statement sees what a concurrent writer of the same contact committed while we waited.
  await sql
    .raw(
      `create function contact_search_refresh(ids integer[]) returns void language plpgsql as $$ begin
      if current_setting('${POSTGRES_DEFER_SETTING}', true) = 'on' then return; end if;
      perform 1 from contact_search where contact_id = any(ids) order by contact_id for update;
      update contact_search s set search_text = t.search_text
        from (select c.id, ${POSTGRES_TEXT} as search_text from contacts c where c.id = any(ids)) t
        where s.contact_id = t.id and s.search_text is distinct from t.search_text;
    end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function contact_search_contacts_insert() returns trigger language plpgsql as $$ begin
      ${deferred}
      insert into contact_search (contact_id, account_id, search_text)
        select c.id, c.account_id, ${POSTGRES_TEXT} from contacts c where c.id in (select id from new_rows);
      insert into contact_orphans (account_id, contact_id) select account_id, id from new_rows;
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger contact_search_contacts_insert after insert on contacts
    referencing new table as new_rows for each statement execute function contact_search_contacts_insert()`.execute(
    db,
  );
  await sql
    .raw(
      `create function contact_search_contacts_update() returns trigger language plpgsql as $$ begin
      perform contact_search_refresh(array[new.id]);
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger contact_search_contacts_update after update on contacts for each row
    when ((old.firstname, old.surname, old.notes, old.ccid) is distinct from (new.firstname, new.surname, new.notes, new.ccid))
    execute function contact_search_contacts_update()`.execute(db);
  // Statement-level with transition tables: a bulk insert of addresses is one refresh.
  await sql
    .raw(
      `create function contact_search_children() returns trigger language plpgsql as $$ begin
      ${deferred}
      if tg_op = 'INSERT' then
        perform contact_search_refresh(array(select distinct contact_id from new_rows));
      elsif tg_op = 'UPDATE' then
        perform contact_search_refresh(array(select contact_id from new_rows union select contact_id from old_rows));
      else
        perform contact_search_refresh(array(select distinct contact_id from old_rows));
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  for (const table of ['emails', 'contact_values']) {
    const name = (event: string) => sql.id(`contact_search_${table}_${event}`);
    await sql`create trigger ${name('insert')} after insert on ${sql.id(table)}
      referencing new table as new_rows for each statement execute function contact_search_children()`.execute(
      db,
    );
    await sql`create trigger ${name('update')} after update on ${sql.id(table)}
      referencing old table as old_rows new table as new_rows
      for each statement execute function contact_search_children()`.execute(db);
    await sql`create trigger ${name('delete')} after delete on ${sql.id(table)}
      referencing old table as old_rows for each statement execute function contact_search_children()`.execute(
      db,
    );
  }
  // The contacts' rows are locked first (FOR NO KEY UPDATE does not wait for the key-share locks
  // that inserting memberships takes): two transactions removing a contact's last two memberships
  // each see the other's, and the second to lock re-reads after the first committed.
  await sql
    .raw(
      `create function contact_search_memberships() returns trigger language plpgsql as $$ begin
      ${deferred}
      if tg_op = 'INSERT' then
        perform 1 from contacts where id in (select contact_id from new_rows) order by id for no key update;
        delete from contact_orphans where contact_id in (select contact_id from new_rows);
      else
        perform 1 from contacts where id in (select contact_id from old_rows) order by id for no key update;
        insert into contact_orphans (account_id, contact_id)
          select c.account_id, c.id from contacts c
          where c.id in (select contact_id from old_rows)
            and not exists (select 1 from memberships m where m.contact_id = c.id)
          on conflict do nothing;
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger contact_search_memberships_insert after insert on memberships
    referencing new table as new_rows for each statement execute function contact_search_memberships()`.execute(
    db,
  );
  await sql`create trigger contact_search_memberships_delete after delete on memberships
    referencing old table as old_rows for each statement execute function contact_search_memberships()`.execute(
    db,
  );
}

/**
 * pg_trgm (and btree_gin, for the account column) ship with PostgreSQL but may be missing or not
 * allowed; a savepoint keeps a refused `create extension` from aborting the migration.
 */
async function createPostgresTrigramIndex(db: Kysely<unknown>): Promise<void> {
  const available = await sql<{ name: string }>`select name from pg_available_extensions
    where name in ('pg_trgm', 'btree_gin')`.execute(db);
  const names = new Set(available.rows.map((row) => row.name));
  if (!names.has('pg_trgm')) return;
  for (const columns of names.has('btree_gin')
    ? ['account_id, search_text gin_trgm_ops', 'search_text gin_trgm_ops']
    : ['search_text gin_trgm_ops']) {
    await sql`savepoint contact_search_trigram`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
      if (columns.startsWith('account_id'))
        await sql`create extension if not exists btree_gin`.execute(db);
      await sql
        .raw(`create index contact_search_trgm on contact_search using gin (${columns})`)
        .execute(db);
      await sql`release savepoint contact_search_trigram`.execute(db);
      return;
    } catch {
      await sql`rollback to savepoint contact_search_trigram`.execute(db);
    }
  }
}

async function postgresDown(db: Kysely<unknown>): Promise<void> {
  for (const [table, name] of POSTGRES_TRIGGERS) {
    await sql`drop trigger if exists ${sql.id(name)} on ${sql.id(table)}`.execute(db);
  }
  await sql`drop table if exists contact_search`.execute(db);
  await sql`drop table if exists contact_orphans`.execute(db);
  for (const signature of POSTGRES_FUNCTIONS)
    await sql.raw(`drop function if exists ${signature}`).execute(db);
  await sql`alter table contacts add column search_text text not null default ''`.execute(db);
  const trigram = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trigram.rows.length > 0) {
    await sql`create index contacts_search_trgm on contacts using gin (search_text gin_trgm_ops)`.execute(
      db,
    );
  }
}
