import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { randomId, type Sealer } from './sealing.ts';

/** OAuth tokens as the gateway keeps them (sealed at rest). Times in ms since the epoch. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string | null;
  issuedAt: number;
  /** null when the upstream gave no `expires_in`: used until the API refuses it. */
  expiresAt: number | null;
}

/** How the browser's session talks to the upstream: never sent to the browser (SECURITY.md 10). */
export type Credential = { method: 'key'; key: string } | { method: 'oauth'; tokens: OAuthTokens };

/** What the page may know about who is signed in: from the upstream's own answers, no secret. */
export interface Principal {
  method: Credential['method'];
  /** A global key or token manages every account of the group (spec §4.8). */
  global: boolean;
  /** The username, when the upstream's token response names it (the spec does not promise it). */
  username: string | null;
}

export interface Session {
  /** The keyed hash of the cookie's value: the row's name. */
  idHash: string;
  credential: Credential;
  principal: Principal;
  createdAt: number;
  seenAt: number;
  /** The absolute end, fixed at sign-in. */
  expiresAt: number;
  /** Bumped by every change of the credential: the compare-and-swap of a refresh. */
  version: number;
}

/** An authorization request in flight, until its callback (single use, SECURITY.md 9 and 28). */
export interface PendingLogin {
  codeVerifier: string;
  returnTo: string;
}

export interface Lifetimes {
  idleMs: number;
  maxMs: number;
}

/** A pending login lives this long: the person signs in and consents at the upstream meanwhile. */
export const PENDING_LOGIN_MS = 10 * 60_000;

/**
 * The gateway's sessions, in a SQLite file in DATA_DIR (SECURITY.md 25): never process memory, so
 * a restart keeps them and several gateway processes on one DATA_DIR behave as one. Credentials
 * are sealed (AES-256-GCM) and rows are named by a keyed hash of the cookie's value.
 */
export class SessionStore {
  readonly #db: SqliteDatabase.Database;
  readonly #sealer: Sealer;
  readonly #lifetimes: Lifetimes;

  constructor(file: string, sealer: Sealer, lifetimes: Lifetimes) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    this.#db = new SqliteDatabase(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    // Another gateway process may hold the write lock for a moment.
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(SCHEMA);
    this.#sealer = sealer;
    this.#lifetimes = lifetimes;
  }

  close(): void {
    this.#db.close();
  }

  /** A new session with a new id (never one the browser brought); returns the cookie's value. */
  create(credential: Credential, principal: Principal, now: number): { id: string; session: Session } {
    const id = randomId();
    const idHash = this.#sealer.hashId(id);
    const session: Session = {
      idHash,
      credential,
      principal,
      createdAt: now,
      seenAt: now,
      expiresAt: now + this.#lifetimes.maxMs,
      version: 0,
    };
    this.#db
      .prepare(
        `INSERT INTO gateway_sessions (id_hash, principal, credential, created_at, seen_at, expires_at, version)
         VALUES (?, ?, ?, ?, ?, ?, 0)`,
      )
      .run(idHash, JSON.stringify(principal), this.#sealer.seal(credential, idHash), now, now, session.expiresAt);
    this.#purge(now);
    return { id, session };
  }

  /**
   * The live session a cookie's value names, or null (unknown, ended, idle or past its absolute
   * lifetime; an expired one is deleted). Marks it used, at most once per `touchEvery`.
   */
  find(id: string | undefined, now: number): Session | null {
    if (!id) return null;
    const session = this.#read(this.#sealer.hashId(id));
    if (!session) return null;
    if (now >= session.expiresAt || now >= session.seenAt + this.#lifetimes.idleMs) {
      this.delete(session.idHash);
      return null;
    }
    const touchEvery = Math.min(60_000, this.#lifetimes.idleMs / 10);
    if (now - session.seenAt >= touchEvery) {
      this.#db.prepare('UPDATE gateway_sessions SET seen_at = ? WHERE id_hash = ?').run(now, session.idHash);
      session.seenAt = now;
    }
    return session;
  }

  /** The row as stored now (after another request or process changed it), or null once ended. */
  reload(idHash: string): Session | null {
    return this.#read(idHash);
  }

  /** Ends a session everywhere: every process reads the same row. */
  delete(idHash: string): void {
    this.#db.prepare('DELETE FROM gateway_sessions WHERE id_hash = ?').run(idHash);
  }

  /**
   * Takes the right to refresh the session's tokens: only while the credential is still at
   * `version` and nobody else holds an unexpired lease. Exactly one caller, in any process, wins.
   */
  claimRefresh(idHash: string, version: number, now: number, leaseMs: number): boolean {
    const result = this.#db
      .prepare(
        `UPDATE gateway_sessions SET refreshing_until = ?
         WHERE id_hash = ? AND version = ? AND (refreshing_until IS NULL OR refreshing_until <= ?)`,
      )
      .run(now + leaseMs, idHash, version, now);
    return result.changes === 1;
  }

  /** Stores refreshed tokens if the credential is still at `version`; false when it moved on or ended. */
  completeRefresh(idHash: string, version: number, credential: Credential): boolean {
    const result = this.#db
      .prepare(
        `UPDATE gateway_sessions SET credential = ?, version = version + 1, refreshing_until = NULL
         WHERE id_hash = ? AND version = ?`,
      )
      .run(this.#sealer.seal(credential, idHash), idHash, version);
    return result.changes === 1;
  }

  /** Gives the lease back after a refresh that failed without an answer (the upstream was down). */
  releaseRefresh(idHash: string, version: number): void {
    this.#db
      .prepare('UPDATE gateway_sessions SET refreshing_until = NULL WHERE id_hash = ? AND version = ?')
      .run(idHash, version);
  }

  /** Remembers an authorization request under its `state`, bound to the browser that made it. */
  savePendingLogin(state: string, browserId: string, login: PendingLogin, now: number): void {
    const stateHash = this.#sealer.hashId(state);
    this.#db
      .prepare(
        'INSERT INTO gateway_logins (state_hash, browser_hash, pending, expires_at) VALUES (?, ?, ?, ?)',
      )
      .run(stateHash, this.#sealer.hashId(browserId), this.#sealer.seal(login, stateHash), now + PENDING_LOGIN_MS);
  }

  /**
   * The authorization request `state` names, once: it is deleted whatever follows. null when
   * unknown, used, expired, or started by another browser (SECURITY.md 28).
   */
  takePendingLogin(state: string, browserId: string | undefined, now: number): PendingLogin | null {
    const stateHash = this.#sealer.hashId(state);
    const row = this.#db
      .prepare('DELETE FROM gateway_logins WHERE state_hash = ? RETURNING browser_hash, pending, expires_at')
      .get(stateHash) as { browser_hash: string; pending: Buffer; expires_at: number } | undefined;
    if (!row || !browserId || row.expires_at <= now) return null;
    if (row.browser_hash !== this.#sealer.hashId(browserId)) return null;
    return this.#sealer.open<PendingLogin>(row.pending, stateHash);
  }

  #read(idHash: string): Session | null {
    const row = this.#db.prepare('SELECT * FROM gateway_sessions WHERE id_hash = ?').get(idHash) as
      | SessionRow
      | undefined;
    if (!row) return null;
    const credential = this.#sealer.open<Credential>(row.credential, idHash);
    // Sealed under another SESSION_SECRET: it can never be used again.
    if (!credential) {
      this.delete(idHash);
      return null;
    }
    return {
      idHash,
      credential,
      principal: JSON.parse(row.principal) as Principal,
      createdAt: row.created_at,
      seenAt: row.seen_at,
      expiresAt: row.expires_at,
      version: row.version,
    };
  }

  #purged = 0;

  /** Ended sessions and abandoned logins go, at most once a minute. */
  #purge(now: number): void {
    if (now - this.#purged < 60_000) return;
    this.#purged = now;
    this.#db
      .prepare('DELETE FROM gateway_sessions WHERE expires_at <= ? OR seen_at <= ?')
      .run(now, now - this.#lifetimes.idleMs);
    this.#db.prepare('DELETE FROM gateway_logins WHERE expires_at <= ?').run(now);
  }
}

interface SessionRow {
  id_hash: string;
  principal: string;
  credential: Buffer;
  created_at: number;
  seen_at: number;
  expires_at: number;
  version: number;
  refreshing_until: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS gateway_sessions (
  id_hash TEXT PRIMARY KEY,
  principal TEXT NOT NULL,
  credential BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  version INTEGER NOT NULL,
  refreshing_until INTEGER
);
CREATE TABLE IF NOT EXISTS gateway_logins (
  state_hash TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  pending BLOB NOT NULL,
  expires_at INTEGER NOT NULL
);
`;

/** The gateway's database file in DATA_DIR, beside (never inside) the reference server's. */
export const SESSION_DATABASE_FILE = 'gateway.db';
