import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSqliteWriteLock } from '../db/database.ts';
import { runCli } from './cli-runner.ts';

/**
 * Issue 16 finding 15: a start on a fresh DATA_DIR once failed with "Migration
 * 2026-11-21T0000-initial failed" and no cause. Two processes starting at once on SQLite both ran
 * the migrations (Kysely's SQLite adapter takes no lock); and the cause was never printed.
 */
describe('starting on a fresh DATA_DIR', () => {
  let root = '';
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-startup-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lets several processes start at once on a folder that does not exist yet', { timeout: 120_000 }, async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const results = await Promise.all(
      ['a', 'b', 'c'].map((name) => runCli(dataDir, ['account', 'create', `shop-${name}`], '')),
    );
    for (const result of results) expect(result.code, JSON.stringify(result.json)).toBe(0);
    const file = new SqliteDatabase(path.join(dataDir, 'listkeeper.db'), { readonly: true });
    try {
      expect(file.prepare('select count(*) as n from accounts').get()).toEqual({ n: 3 });
    } finally {
      file.close();
    }
  });

  // The test above may pass by luck (the processes need not overlap); this one cannot: the
  // migrations read what has run only once they hold the write lock, so they see everything a
  // process that held it before them committed.
  it('migrates only under the write lock, after whoever holds it has committed', async () => {
    const file = path.join(root, 'locked.db');
    const first = new SqliteDatabase(file);
    first.pragma('journal_mode = WAL');
    first.exec('create table migrated (name text)');
    const second = new SqliteDatabase(file);
    // No waiting inside SQLite: a busy lock answers at once, and the helper retries.
    second.pragma('busy_timeout = 0');
    try {
      first.exec('BEGIN IMMEDIATE');
      first.exec("insert into migrated values ('initial')");
      let seen: unknown[] | undefined;
      const migrating = withSqliteWriteLock(second, () => {
        seen = second.prepare('select name from migrated').all();
        return Promise.resolve();
      });
      // It tried the lock at once, found it held, and waits: it has read nothing yet.
      expect(seen).toBeUndefined();
      first.exec('COMMIT');
      await migrating;
      expect(seen).toEqual([{ name: 'initial' }]);
    } finally {
      first.close();
      second.close();
    }
  });

  it('says why a migration failed, and leaves nothing half-migrated', async () => {
    const dataDir = path.join(root, 'conflicting');
    fs.mkdirSync(dataDir);
    const file = new SqliteDatabase(path.join(dataDir, 'listkeeper.db'));
    file.exec('create table accounts (id integer primary key)');
    file.close();
    const result = await runCli(dataDir, ['account', 'create', 'shop'], '');
    expect(result.code).toBe(1);
    expect(result.json?.message).toMatch(/^Migration 2026-11-21T0000-initial failed: .*table .?accounts.? already exists/);
    expect(result.stderr).toContain('already exists');
    const after = new SqliteDatabase(path.join(dataDir, 'listkeeper.db'), { readonly: true });
    try {
      const tables = after.prepare("select name from sqlite_master where type = 'table' order by name").all();
      expect(tables).toEqual([{ name: 'accounts' }]);
    } finally {
      after.close();
    }
  });

  it('names DATA_DIR when it cannot be made', async () => {
    const blocker = path.join(root, 'a-file');
    fs.writeFileSync(blocker, '');
    const result = await runCli(path.join(blocker, 'data'), ['account', 'create', 'shop'], '');
    expect(result.code).toBe(1);
    expect(result.json?.message).toMatch(/^DATA_DIR .*a-file\/data cannot be created: (ENOTDIR|EEXIST)/);
  });
});
