import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReadPool } from './heavy-reader.ts';

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'listkeeper-read-pool-'));
  file = path.join(dir, 'listkeeper.sqlite');
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE numbers (n INTEGER); INSERT INTO numbers VALUES (1), (2), (3);');
  db.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(() => {
  vi.restoreAllMocks();
});

const allNumbers = { sql: 'SELECT n FROM numbers ORDER BY n', parameters: [] };

describe('the pool of reader threads', () => {
  it('closes threads that are still starting by asking them, never by terminating them', async () => {
    // Terminating a thread while it loads better-sqlite3's native addon aborted a CI run's test
    // process ("FATAL ERROR: Error::New napi_get_last_error_info", SIGABRT); a server closed right
    // after it started did that. Each thread now ends by itself once it has started.
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    const pool = startReadPool(file, 4);
    pool.warm();
    await pool.close();
    expect(terminate).not.toHaveBeenCalled();
  });

  it('answers a read under way when it closes, and refuses reads after', async () => {
    const pool = startReadPool(file, 1);
    const reading = pool.rows(allNumbers);
    const closing = pool.close();
    await expect(reading).resolves.toEqual([[1], [2], [3]]);
    await closing;
    await expect(pool.rows(allNumbers)).rejects.toThrow('The database is closed');
  });
});
