import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * Spec §4.1 get many answers `count`, the contacts of the whole query. Without a filter that is the
 * account's size, and counting 100,000 index entries took most of a page's time. Triggers keep one
 * counter row per account in step with every insert and delete (cascades included), inside the
 * writing transaction. On PostgreSQL the row is locked until that transaction ends, so contact
 * creations in one account wait for each other's commit; statement-level triggers keep a bulk
 * insert to one update.
 */
export function contactCounts(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('contact_counts')
        .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('contacts', 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into contact_counts (account_id, contacts)
        select account_id, count(*) from contacts group by account_id`.execute(db);
      if (dialect === 'sqlite') {
        await sql`create trigger contact_counts_insert after insert on contacts begin
          insert into contact_counts (account_id, contacts) values (new.account_id, 1)
            on conflict (account_id) do update set contacts = contacts + 1; end`.execute(db);
        await sql`create trigger contact_counts_delete after delete on contacts begin
          update contact_counts set contacts = contacts - 1 where account_id = old.account_id; end`.execute(db);
        return;
      }
      await sql`create function contact_counts_insert() returns trigger language plpgsql as $$ begin
          insert into contact_counts (account_id, contacts)
            select account_id, count(*) from inserted group by account_id
            on conflict (account_id) do update set contacts = contact_counts.contacts + excluded.contacts;
          return null;
        end $$`.execute(db);
      await sql`create trigger contact_counts_insert after insert on contacts
        referencing new table as inserted for each statement execute function contact_counts_insert()`.execute(db);
      await sql`create function contact_counts_delete() returns trigger language plpgsql as $$ begin
          update contact_counts set contacts = contact_counts.contacts - deleted_counts.contacts
            from (select account_id, count(*) as contacts from deleted group by account_id) as deleted_counts
            where contact_counts.account_id = deleted_counts.account_id;
          return null;
        end $$`.execute(db);
      await sql`create trigger contact_counts_delete after delete on contacts
        referencing old table as deleted for each statement execute function contact_counts_delete()`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        await sql`drop trigger if exists contact_counts_insert`.execute(db);
        await sql`drop trigger if exists contact_counts_delete`.execute(db);
      } else {
        await sql`drop trigger if exists contact_counts_insert on contacts`.execute(db);
        await sql`drop trigger if exists contact_counts_delete on contacts`.execute(db);
        await sql`drop function if exists contact_counts_insert()`.execute(db);
        await sql`drop function if exists contact_counts_delete()`.execute(db);
      }
      await db.schema.dropTable('contact_counts').ifExists().execute();
    },
  };
}
