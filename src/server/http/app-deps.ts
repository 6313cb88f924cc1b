import type { Kysely } from 'kysely';
import type { AuthCache } from '../auth/auth-cache.ts';
import type { ServerConfig } from '../config.ts';
import type { DialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { Clock } from '../lib/clock.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';

/** What every route needs, built once in app.ts and handed down explicitly (no decorators). */
export interface AppDeps {
  db: Kysely<Database>;
  /** A write's transaction, which stores the documents of the contacts it changed (db/unit-of-work.ts). */
  unitOfWork: UnitOfWork;
  dialect: DialectName;
  config: ServerConfig;
  rateLimiter: RateLimiter;
  /** Keys and accounts as recently read (auth/auth-cache.ts). */
  authCache: AuthCache;
  /** The server's time (lib/clock.ts): tests set the date. */
  clock: Clock;
  /**
   * The origin links in mail point to (PUBLIC_URL, else `http://HOST:PORT` with the port bound):
   * from configuration, never from a request (SECURITY.md 34).
   */
  publicOrigin: () => string;
  /**
   * Whether writes are recorded in the audit log (issue 26 item 4): always, but in a server the
   * bench builds without it to measure what it costs (BuildAppOptions.auditLog).
   */
  auditLog: boolean;
  /** Tests parse every answer with the contract's schema, to catch a mapper that drifts. */
  validateResponses: boolean;
}
