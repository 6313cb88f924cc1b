import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * A read never sees another request's uncommitted write. On SQLite one connection serves every
 * request and the hot reads skip Kysely's connection queue (db/database.ts directReaderOf): they
 * must still wait while a transaction holds the connection.
 */
describeEachDialect('reads beside an open write transaction', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('answers a contact written in a transaction that rolls back as never there', async () => {
    // Warm the key and account caches, so the read goes straight to the contact.
    expect((await server.request('GET', '/api/2/contacts/')).status).toBe(200);
    let read: Promise<{ status: number }> | undefined;
    const rolledBack = server.database.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('contacts')
        .values({ account_id: server.account.id, created: server.clock.now().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      read = server.request('GET', `/api/2/contacts/${row.id}/`);
      // Time for the read to run now, if it were going to read inside this transaction.
      await new Promise((resolve) => setTimeout(resolve, 100));
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect((await read)?.status).toBe(404);
  });
});
