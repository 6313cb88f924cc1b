import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPragma, openDatabase, type DatabaseHandle } from '../db/database.ts';

/** SECURITY.md 22: WAL, synchronous=FULL and foreign keys on the embedded database, asserted at start-up. */
describe('the embedded SQLite database', () => {
  let dataDir: string;
  let database: DatabaseHandle;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-pragmas-'));
    database = await openDatabase({ dataDir });
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function pragma(name: string): Promise<unknown> {
    const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(
      database.db,
    );
    return Object.values(rows[0] ?? {})[0];
  }

  it('runs the server with WAL, synchronous=FULL and foreign keys on', async () => {
    expect(database.dialect).toBe('sqlite');
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(2);
    expect(await pragma('foreign_keys')).toBe(1);
  });

  it('leaves the file in WAL mode for every other process that opens it (the CLI)', () => {
    const other = new SqliteDatabase(path.join(dataDir, 'listkeeper.db'), { readonly: true });
    try {
      expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      other.close();
    }
  });

  it('refuses to start on a database whose settings differ', () => {
    // An in-memory database cannot use WAL: SQLite keeps it in `memory` journal mode.
    const memory = new SqliteDatabase(':memory:');
    try {
      memory.pragma('journal_mode = WAL');
      expect(() => assertPragma(memory, 'journal_mode', 'wal')).toThrow(
        /journal_mode is memory, expected wal/,
      );
      memory.pragma('synchronous = NORMAL');
      expect(() => assertPragma(memory, 'synchronous', 2)).toThrow(/synchronous is 1, expected 2/);
      memory.pragma('synchronous = FULL');
      expect(() => assertPragma(memory, 'synchronous', 2)).not.toThrow();
    } finally {
      memory.close();
    }
  });
});
