import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Spec §7's 500 and DESIGN.md "Errors": a failure inside the server answers in the error shape with
 * a message that tells nothing of the cause (no SQL, no table, no stack), and the server goes on.
 */
describe('an internal error', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(() => server.close());

  it('answers 500 in the error shape, telling nothing of the cause, and keeps serving', async () => {
    const db = server.database.db;
    expect((await server.request('GET', '/api/2/lists/')).status).toBe(200);
    // The table goes away under the running server: its next query fails inside SQLite.
    await sql`alter table messages rename to messages_elsewhere`.execute(db);
    try {
      const failed = await server.request('GET', '/api/2/messages/');
      expect(failed.status).toBe(500);
      expect(failed.json).toEqual({ is_error: true, message: 'Internal server error' });
      expect(failed.body).not.toMatch(/messages|sqlite|select|at \//i);
      expect(failed.headers['x-content-type-options']).toBe('nosniff');
      expect((await server.request('GET', '/api/2/lists/')).status).toBe(200);
    } finally {
      await sql`alter table messages_elsewhere rename to messages`.execute(db);
    }
    expect((await server.request('GET', '/api/2/messages/')).status).toBe(200);
  });
});
