import type { DatabaseHandle } from '../db/database.ts';

/** Filled in by the demo-data work of issue #3; for now it only reports the database in use. */
export function runDemo(_args: string[], database: DatabaseHandle): Promise<unknown> {
  return Promise.resolve({ demo: 'pending', database: database.dialect });
}
