// A worker thread of db/heavy-reader.ts: its own read-only connection to the SQLite file (WAL lets
// it read beside the server's writer), answering one job at a time: a page of ids and their count,
// or the rows of one statement.
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import type { PageJob, PageAnswer, Rows, WorkerJob } from './heavy-reader.ts';

const { file, cacheKib } = workerData as { file: string; cacheKib: number };
const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma(`cache_size = -${cacheKib}`);

const statements = new Map<string, SqliteDatabase.Statement>();
function prepare(sql: string): SqliteDatabase.Statement {
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql).raw(true);
    statements.set(sql, statement);
  }
  return statement;
}

/** One read transaction: the page and its count see the same snapshot. */
const run = db.transaction((job: PageJob): PageAnswer => {
  const ids = prepare(job.page.sql)
    .all(job.page.parameters)
    .map((row) => Number((row as unknown[])[0]));
  // A partial (or empty first) page ends the result: its count needs no second pass.
  const ended = ids.length < job.limit && (ids.length > 0 || job.offset === 0);
  const count = ended
    ? job.offset + ids.length
    : Number((prepare(job.count.sql).get(job.count.parameters) as unknown[])[0]);
  return { ids, count };
});

// The pool may now end this thread: until here it was loading the driver's native addon, and a
// thread terminated then aborts the whole process (heavy-reader.ts, close()).
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (message: { id: number; job: WorkerJob } | { close: true }) => {
  if ('close' in message) {
    db.close();
    parentPort?.close();
    return;
  }
  try {
    const { job } = message;
    const answer: PageAnswer | Rows =
      'page' in job ? run(job.page) : (prepare(job.rows.sql).all(job.rows.parameters) as Rows);
    parentPort?.postMessage({ id: message.id, answer });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
