import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { lockInbound } from '../repositories/held.repository.ts';

/**
 * On SQLite the inbound pipeline's transaction takes the write lock before it reads: a
 * transaction that read first and wrote after another process's commit failed at once with
 * "database is locked" (seen as `listkeeper demo` posted its mail beside a running `serve`).
 */
describe('the inbound lock on SQLite', () => {
  let dataDir = '';
  let database: DatabaseHandle;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-inbound-lock-'));
    database = await openDatabase({ dataDir });
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds the write lock from its first statement, so no other process writes in between', async () => {
    const other = new SqliteDatabase(path.join(dataDir, 'listkeeper.db'));
    other.pragma('busy_timeout = 0');
    try {
      await database.db.transaction().execute(async (trx) => {
        await lockInbound(trx, 1, '<a@example.org>');
        expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
      });
      // Once it ended, the other process writes again.
      other.exec('BEGIN IMMEDIATE');
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
  });
});
