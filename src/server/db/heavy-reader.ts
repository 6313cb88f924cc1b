import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Reads that can take long (a search or filter over an address book of a million contacts, the
 * member ids of a list of a million, issue 16, SECURITY.md 29) must neither stop the server nor
 * make another tenant wait:
 * - on SQLite, whose driver runs a statement on the calling thread, they run on worker threads,
 *   each with its own read-only connection (WAL lets them read beside the writer);
 * - on both dialects, an account runs one of them at a time, so one tenant's requests cannot take
 *   every worker or every pooled connection; the others queue behind their own account's.
 */

/** A statement and its parameters, as Kysely compiles them. */
export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** One page of contact ids and the count of the whole result (spec §4.1 get many). */
export interface PageJob {
  page: Statement;
  count: Statement;
  limit: number;
  offset: number;
}

export interface PageAnswer {
  ids: number[];
  count: number;
}

/** The rows of one statement, each as an array of its values. */
export type Rows = unknown[][];

export interface ReadPool {
  run(job: PageJob): Promise<PageAnswer>;
  /** Runs one statement: for a read whose few rows carry much (a list's member ids as JSON text). */
  rows(statement: Statement): Promise<Rows>;
  /** Starts every worker now: a server does, so that no request waits for a thread to start. */
  warm(): void;
  close(): Promise<void>;
}

const pools = new WeakMap<Kysely<Database>, ReadPool>();
const lanes = new WeakMap<Kysely<Database>, AccountLanes>();

/** The database's pool of reader threads (SQLite only); a transaction has none. */
export function readPoolOf(db: Kysely<Database>): ReadPool | undefined {
  return pools.get(db);
}

export function useReadPool(db: Kysely<Database>, pool: ReadPool): void {
  pools.set(db, pool);
}

/** Runs `read` when no other heavy read of the same account is under way (in this process). */
export function oneAtATimePerAccount<T>(
  db: Kysely<Database>,
  accountId: number,
  read: () => Promise<T>,
): Promise<T> {
  let ofDb = lanes.get(db);
  if (!ofDb) {
    ofDb = new AccountLanes();
    lanes.set(db, ofDb);
  }
  return ofDb.run(accountId, read);
}

/**
 * One statement that may read a million rows of an account (a list's memberships, a custom
 * field's values): on SQLite on a reader thread (a transaction has none and reads on its
 * connection), on PostgreSQL on the database's side; on both one per account at a time, as
 * searches are. Each row as an array of its values.
 */
export async function heavyRows(
  db: Kysely<Database>,
  accountId: number,
  query: RawBuilder<unknown>,
): Promise<Rows> {
  const statement = query.compile(db);
  const pool = readPoolOf(db);
  return oneAtATimePerAccount(db, accountId, async () =>
    pool
      ? pool.rows(statement)
      : (await db.executeQuery<Record<string, unknown>>(statement)).rows.map((row) =>
          Object.values(row),
        ),
  );
}

class AccountLanes {
  /** The last read queued for each account; the next one starts when it settles. */
  private readonly tails = new Map<number, Promise<unknown>>();

  run<T>(accountId: number, read: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(accountId) ?? Promise.resolve();
    const result = previous.then(read, read);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(accountId, tail);
    void tail.then(() => {
      if (this.tails.get(accountId) === tail) this.tails.delete(accountId);
    });
    return result;
  }
}

/** Each worker's page cache, in KiB (the server's connection has its own, db/database.ts). */
const WORKER_CACHE_KIB = 32 * 1024;

/** What a worker is sent: a page of contact ids, or the rows of one statement. */
export type WorkerJob = { page: PageJob } | { rows: Statement };

/** What a worker answers a job with. */
type WorkerAnswer = { id: number; answer?: PageAnswer | Rows; error?: string };

/** How long close() lets a worker start, finish its statement and end before it is terminated. */
const CLOSE_GRACE_MS = 10_000;

interface Pending {
  id: number;
  job: WorkerJob;
  resolve: (answer: PageAnswer | Rows) => void;
  reject: (error: Error) => void;
}

/**
 * Starts worker threads on demand (or all at once, warm()), up to `size`, each with a read-only
 * connection to `file`.
 * Jobs wait in order for a free worker. A worker that dies fails its job and is replaced.
 */
export function startReadPool(file: string, size = defaultPoolSize()): ReadPool {
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  /** Every worker until it exits (their number is the pool's size), with what close() waits for. */
  const live = new Map<Worker, { ready: Promise<void>; exited: Promise<void> }>();
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Worker => {
    const worker = new Worker(new URL('./read-worker.ts', import.meta.url), {
      workerData: { file, cacheKib: WORKER_CACHE_KIB },
    });
    worker.unref();
    let ready = () => {};
    let exited = () => {};
    live.set(worker, {
      ready: new Promise((resolve) => (ready = resolve)),
      exited: new Promise((resolve) => (exited = resolve)),
    });
    worker.on('message', (message: WorkerAnswer | { ready: true }) => {
      if ('ready' in message) {
        ready();
        return;
      }
      const pending = busy.get(worker);
      if (!pending || pending.id !== message.id) return;
      busy.delete(worker);
      if (message.answer) pending.resolve(message.answer);
      else pending.reject(new Error(message.error ?? 'The reader thread failed'));
      idle.push(worker);
      pump();
    });
    const lost = (error: Error) => {
      // Once only, whether 'error' or 'exit' comes first.
      if (!live.delete(worker)) return;
      ready();
      exited();
      const pending = busy.get(worker);
      busy.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      pending?.reject(error);
      if (!closed) pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The reader thread exited (${code})`)));
    return worker;
  };

  const pump = () => {
    while (queue.length > 0 && !closed) {
      const worker = idle.pop() ?? (live.size < size ? spawn() : undefined);
      if (!worker) return;
      const pending = queue.shift() as Pending;
      busy.set(worker, pending);
      worker.postMessage({ id: pending.id, job: pending.job });
    }
  };

  const send = (job: WorkerJob) => {
    if (closed) return Promise.reject(new Error('The database is closed'));
    return new Promise<PageAnswer | Rows>((resolve, reject) => {
      queue.push({ id: nextId++, job, resolve, reject });
      pump();
    });
  };

  return {
    run: (job) => send({ page: job }) as Promise<PageAnswer>,
    rows: (statement) => send({ rows: statement }) as Promise<Rows>,
    warm() {
      while (!closed && live.size < size) idle.push(spawn());
    },
    /**
     * Each worker is asked to end once it has started, after its statement: terminating a thread
     * while it loads better-sqlite3's native addon aborts the process (seen in CI: "FATAL ERROR:
     * Error::New napi_get_last_error_info", SIGABRT). One that has not ended after the grace
     * period is terminated.
     */
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('The database is closed'));
      idle.length = 0;
      await Promise.all(
        [...live].map(async ([worker, { ready, exited }]) => {
          const grace = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
          await ready;
          worker.postMessage({ close: true });
          await exited;
          clearTimeout(grace);
        }),
      );
    },
  };
}

/**
 * Enough threads for a few tenants' long reads at once, even on two cores (the system shares the
 * cores between them, so a short search still finishes while long ones run), up to one per core.
 */
function defaultPoolSize(): number {
  return Math.min(8, Math.max(4, os.availableParallelism()));
}
