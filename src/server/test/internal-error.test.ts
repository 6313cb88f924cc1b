import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { createAccount, createApiKeyAdministrator } from '../services/provisioning.service.ts';

/**
 * Spec §7's 500 and DESIGN.md "Errors": a failure inside the server answers in the error shape with
 * a message that tells nothing of the cause (no SQL, no table, no stack), and the server goes on.
 */
describe('an internal error', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-500-'));
    database = await openDatabase({ dataDir });
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      STATIC_DIR: path.join(dataDir, 'none'),
    });
    app = await buildApp({ config, database });
    const account = await createAccount(database.db, { name: 'broken' });
    key = (
      await createApiKeyAdministrator(database.db, {
        accountId: account.id,
        permissions: ['superadmin'],
      })
    ).key;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (url: string) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  it('answers 500 in the error shape, telling nothing of the cause, and keeps serving', async () => {
    expect((await get('/api/2/lists/')).statusCode).toBe(200);
    // The table goes away under the running server: its next query fails inside SQLite.
    await sql`alter table messages rename to messages_elsewhere`.execute(database.db);
    try {
      const failed = await get('/api/2/messages/');
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toEqual({ is_error: true, message: 'Internal server error' });
      expect(failed.body).not.toMatch(/messages|sqlite|select|at \//i);
      expect(failed.headers['x-content-type-options']).toBe('nosniff');
      expect((await get('/api/2/lists/')).statusCode).toBe(200);
    } finally {
      await sql`alter table messages_elsewhere rename to messages`.execute(database.db);
    }
    expect((await get('/api/2/messages/')).statusCode).toBe(200);
  });
});
