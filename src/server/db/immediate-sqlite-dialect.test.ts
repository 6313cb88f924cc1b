import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.ts';

let dir: string;
let handle: DatabaseHandle;
let other: SqliteDatabase.Database;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'listkeeper-immediate-'));
  handle = await openDatabase({ dataDir: dir });
  // A second process on the same file, as the CLI beside a running server; it does not wait.
  other = new SqliteDatabase(path.join(dir, 'listkeeper.db'));
  other.pragma('busy_timeout = 0');
  other.exec('CREATE TABLE probe (x INTEGER)');
});

afterAll(async () => {
  other.close();
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite transactions', () => {
  it('hold the write lock from their start: a read then a write commits though another process tried to write between', async () => {
    await handle.db.transaction().execute(async (trx) => {
      await sql`SELECT count(*) FROM probe`.execute(trx);
      // Begun deferred, this write would commit, and the transaction's own write below would
      // then fail with "database is locked" (its snapshot is stale).
      expect(() => other.prepare('INSERT INTO probe VALUES (1)').run()).toThrow(/locked/);
      await sql`INSERT INTO probe VALUES (2)`.execute(trx);
    });
    expect(other.prepare('SELECT x FROM probe').all()).toEqual([{ x: 2 }]);
  });
});
