import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * SQLite's dialect with every transaction begun `IMMEDIATE`. Kysely begins them deferred: the
 * first read takes a snapshot, and the first write must then upgrade it. When another process (the
 * CLI beside a running server) has committed since that snapshot, the upgrade fails at once with
 * SQLITE_BUSY ("database is locked"), and busy_timeout cannot help: waiting would not make the
 * snapshot current. Taking the write lock at BEGIN waits (busy_timeout) instead of failing. In the
 * server's own process its one connection runs transactions one at a time anyway, and readers (WAL,
 * the read pool) never wait for the write lock.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
