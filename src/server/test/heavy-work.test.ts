import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { dialectOf } from '../db/dialect.ts';
import { readPoolOf } from '../db/heavy-reader.ts';
import type { Database } from '../db/schema.ts';
import { insertField } from '../repositories/custom-fields.repository.ts';
import { renderMissingDocumentsWithin } from '../services/background-document-renderer.ts';
import { DELETE_CHUNK } from '../repositories/chunked-deletes.repository.ts';
import { MISSING_CCIDS_COUNTED } from '../services/accounts.service.ts';
import { expectSuccess, urlOf } from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * SECURITY.md 29 beyond search: a list's member ids were read row by row on the server's thread
 * (SQLite's driver runs a statement there) and serialized one by one; deleting a list or an
 * account cascaded through every row in one statement; turning ccid on counted every contact
 * without one. Each is bounded by its mechanism, proved here without a clock: which statements
 * run, where, and how much each touches.
 */

/** More than two chunks of DELETE_CHUNK. */
const MEMBERS = DELETE_CHUNK * 2 + 200;

/** The statements the app sends its database, on its own connection or on a reader thread. */
function watchStatements(server: TestServer) {
  const onConnection = vi.spyOn(server.database.db.getExecutor(), 'executeQuery');
  const pool = readPoolOf(server.database.db);
  const onThread = pool && vi.spyOn(pool, 'rows');
  return {
    /** SQL run on the request's connection, with the rows each answered or deleted. */
    async onConnection() {
      return Promise.all(
        onConnection.mock.calls.map(async ([query], index) => {
          const result = await (onConnection.mock.results[index]?.value as Promise<{
            rows: unknown[];
            numAffectedRows?: bigint;
          }>);
          return { sql: query.sql, rows: result.rows.length, affected: Number(result.numAffectedRows ?? 0) };
        }),
      );
    },
    /** SQL run on SQLite's reader threads (db/heavy-reader.ts), with the rows each answered. */
    async onThread() {
      return Promise.all(
        (onThread?.mock.calls ?? []).map(async ([statement], index) => ({
          sql: statement.sql,
          rows: (await (onThread?.mock.results[index]?.value as Promise<unknown[]>)).length,
        })),
      );
    },
    /** Restores the spies (which forgets what they saw: read it first). */
    stop() {
      onConnection.mockRestore();
      onThread?.mockRestore();
    },
  };
}

/**
 * The rows `work` inserts, updates and deletes in a transaction of its own, those its triggers
 * write included (SQLite's total_changes(), PostgreSQL's per-transaction table statistics).
 */
async function rowsWrittenBy(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<unknown>) {
  const written = async (trx: Kysely<Database>) =>
    Number(
      (
        await (dialectOf(trx) === 'sqlite'
          ? sql<{ n: number }>`select total_changes() as n`
          : sql<{ n: number }>`select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) as n
              from pg_stat_xact_user_tables`
        ).execute(trx)
      ).rows[0]?.n,
    );
  return db.transaction().execute(async (trx) => {
    const before = await written(trx);
    await work(trx);
    return (await written(trx)) - before;
  });
}

/** `count` contacts of the account straight in the database (a bulk import's worth), on `list`. */
async function seedMembers(server: TestServer, accountId: number, count: number, listId?: number) {
  const created = server.clock.now().toISOString();
  const contacts = await server.database.db
    .insertInto('contacts')
    .values(Array.from({ length: count }, () => ({ account_id: accountId, created })))
    .returning('id')
    .execute();
  if (listId !== undefined) {
    await server.database.db
      .insertInto('memberships')
      .values(contacts.map(({ id }) => ({ account_id: accountId, contact_id: id, list_id: listId, digest: null })))
      .execute();
  }
  return contacts.map(({ id }) => id);
}

describeEachDialect('heavy list and account work stays bounded (SECURITY.md 29)', (dialect) => {
  let server: TestServer;
  let memberIds: number[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const list = expectSuccess(
      await server.request('POST', urlOf('lists.create'), { form: { name: 'big' } }),
      'list',
    ) as { id: number };
    memberIds = await seedMembers(server, server.account.id, MEMBERS, list.id);
  });
  afterAll(() => server.close());

  it('has the database write a list’s member ids as JSON, off the server’s thread on SQLite', async () => {
    const watch = watchStatements(server);
    const one = await server.request('GET', urlOf('lists.get', 'big'));
    const all = await server.request('GET', urlOf('lists.list'));
    expect(one.status, one.body.slice(0, 200)).toBe(200);
    expect((one.json as { contacts: number[] }).contacts).toEqual(memberIds);
    expect((all.json as { data: { contacts: number[] }[] }).data[0]?.contacts).toEqual(memberIds);
    const aggregate = /json_group_array|string_agg/;
    const onThread = (await watch.onThread()).filter((statement) => aggregate.test(statement.sql));
    const onConnection = (await watch.onConnection()).filter((statement) => aggregate.test(statement.sql));
    // One row a list comes back, never one a member.
    for (const statement of [...onThread, ...onConnection]) expect(statement.rows).toBe(1);
    if (dialect === 'sqlite') {
      expect(onThread).toHaveLength(2);
      expect(onConnection).toEqual([]);
    } else {
      expect(onConnection).toHaveLength(2);
    }
    watch.stop();
  });

  it('reads an updated list’s member ids after the commit, not on the writer’s connection', async () => {
    const watch = watchStatements(server);
    const updated = await server.request('PUT', urlOf('lists.update', 'big'), { form: { description: 'Many' } });
    expect(updated.status, updated.body.slice(0, 200)).toBe(200);
    expect((updated.json as { contacts: number[] }).contacts).toEqual(memberIds);
    // The transaction's statements run on a connection of its own: these ran on the database's.
    const aggregate = /json_group_array|string_agg/;
    const read = [...(await watch.onThread()), ...(await watch.onConnection())];
    expect(read.filter((statement) => aggregate.test(statement.sql))).toHaveLength(1);
    watch.stop();
  });

  it('deletes a list’s memberships a chunk at a time before the list', async () => {
    const list = expectSuccess(
      await server.request('POST', urlOf('lists.create'), { form: { name: 'doomed' } }),
      'list',
    ) as { id: number };
    await server.database.db
      .insertInto('memberships')
      .values(memberIds.map((id) => ({ account_id: server.account.id, contact_id: id, list_id: list.id, digest: null })))
      .execute();
    const watch = watchStatements(server);
    const deleted = await server.request('DELETE', urlOf('lists.delete', 'doomed'));
    expect(deleted.status, deleted.body).toBe(200);
    const chunks = (await watch.onConnection()).filter((statement) =>
      /^delete from "memberships"/.test(statement.sql),
    );
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(MEMBERS / DELETE_CHUNK));
    for (const chunk of chunks) expect(chunk.affected).toBeLessThanOrEqual(DELETE_CHUNK);
    // Every membership went in a chunk: the list's own delete cascaded through none.
    expect(chunks.reduce((sum, chunk) => sum + chunk.affected, 0)).toBe(MEMBERS);
    expect((await server.request('GET', urlOf('lists.get', 'doomed'))).status).toBe(404);
    expect(((await server.request('GET', urlOf('lists.get', 'big'))).json as { contacts: number[] }).contacts).toEqual(
      memberIds,
    );
    watch.stop();
  });

  it('deletes an account’s contacts a chunk at a time before the account', async () => {
    const account = await server.createAccount('leaving');
    await seedMembers(server, account.id, MEMBERS);
    const watch = watchStatements(server);
    const deleted = await server.request('DELETE', urlOf('accounts.delete', String(account.id)), {
      key: server.globalKey,
    });
    expect(deleted.status, deleted.body).toBe(200);
    const chunks = (await watch.onConnection()).filter((statement) => /^delete from "contacts"/.test(statement.sql));
    for (const chunk of chunks) expect(chunk.affected).toBeLessThanOrEqual(DELETE_CHUNK);
    expect(chunks.reduce((sum, chunk) => sum + chunk.affected, 0)).toBe(MEMBERS);
    const left = await server.database.db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    watch.stop();
  });

  it('counts the contacts without a ccid only so far when ccid is turned on', async () => {
    // The main account's seeded contacts have no ccid, more of them than are counted.
    expect(memberIds.length).toBeGreaterThan(MISSING_CCIDS_COUNTED);
    const watch = watchStatements(server);
    const refused = await server.request('PUT', urlOf('accounts.update', String(server.account.id)), {
      key: server.globalKey,
      form: { ccid: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      is_error: true,
      message: `ccid: more than ${MISSING_CCIDS_COUNTED} contacts have no ccid; give each contact a ccid before enabling it`,
    });
    watch.stop();
  });

  it('renames a list, adds a custom field and toggles ccid writing two rows each, however many contacts show them', async () => {
    const db = server.database.db;
    const accountId = server.account.id;
    const list = await db.selectFrom('lists').select('id').where('name', '=', 'big').executeTakeFirstOrThrow();
    // Every member's document and search text stay as they were: each change raises its
    // account's document version (one row) beside its own row (migration 2026-11-26T0000).
    const rename = (name: string) => (trx: Kysely<Database>) =>
      trx.updateTable('lists').set({ name }).where('id', '=', list.id).execute();
    expect(await rowsWrittenBy(db, rename('huge'))).toBe(2);
    expect(
      await rowsWrittenBy(db, (trx) => insertField(trx, { account_id: accountId, name: 'Heavy', identifier: 'heavy' })),
    ).toBe(2);
    const ccid = (on: number) => (trx: Kysely<Database>) =>
      trx.updateTable('accounts').set({ ccid: on }).where('id', '=', accountId).execute();
    expect(await rowsWrittenBy(db, ccid(1))).toBe(2);
    expect(await rowsWrittenBy(db, ccid(0))).toBe(2);
    server.forgetCachedAuth();

    // Read at once, a member shows the new name and field; a search by the new name finds them all.
    const member = await server.request('GET', urlOf('contacts.get', String(memberIds[0])));
    expect(member.json).toMatchObject({ lists: [{ list: 'huge' }], heavy: '' });
    const found = await server.request('GET', urlOf('contacts.list'), { query: { search: 'huge', limit: 1 } });
    expect((found.json as { count: number }).count).toBe(MEMBERS);

    // The renderer brings the documents back a bounded batch at a time.
    const batch = 100;
    for (;;) {
      const done = await db.transaction().execute((trx) => renderMissingDocumentsWithin(trx, batch));
      expect(done).toBeLessThanOrEqual(batch);
      if (done === 0) break;
    }
    const behind = await db
      .selectFrom('contact_documents')
      .innerJoin('document_versions', 'document_versions.account_id', 'contact_documents.account_id')
      .select('contact_documents.contact_id')
      .where((eb) =>
        eb.or([
          eb('contact_documents.document', 'is', null),
          eb('contact_documents.version', '<', eb.ref('document_versions.version')),
        ]),
      )
      .where('contact_documents.account_id', '=', accountId)
      .execute();
    expect(behind).toEqual([]);
    const again = await server.request('GET', urlOf('contacts.get', String(memberIds[0])));
    expect(again.body).toBe(
      (
        await db
          .selectFrom('contact_documents')
          .select('document')
          .where('contact_id', '=', memberIds[0] ?? 0)
          .executeTakeFirstOrThrow()
      ).document,
    );
    await rowsWrittenBy(db, rename('big'));
  });
});
