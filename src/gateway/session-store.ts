import { randomId, type Sealer } from './sealing.ts';
import type { SessionDatabase } from './session-database.ts';

export { SESSION_DATABASE_FILE } from './session-database.ts';

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
 * Anyone may start a sign-in, and each start is a row (issue 28 item 2): at most this many pending
 * per client (an address; an IPv6 /64) and in all. Past either, the oldest goes, so the newest
 * "Sign in" always starts; a sign-in pushed out before its callback fails, and the person starts
 * again. A flood from one address pushes out only that address's own. Per client, room for the
 * people behind one proxy or NAT signing in at once; the total bounds the table.
 */
export interface PendingLoginBounds {
  perClient: number;
  total: number;
}

export const PENDING_LOGIN_BOUNDS: PendingLoginBounds = { perClient: 100, total: 10_000 };

/**
 * The gateway's sessions, in a database (SECURITY.md 25): never process memory, so a restart keeps
 * them and several gateway processes (on one DATA_DIR, or on one PostgreSQL database) behave as
 * one. Credentials are sealed (AES-256-GCM) and rows are named by a keyed hash of the cookie's value.
 */
export class SessionStore {
  readonly #db: SessionDatabase;
  readonly #sealer: Sealer;
  readonly #lifetimes: Lifetimes;
  readonly #loginBounds: PendingLoginBounds;

  constructor(
    db: SessionDatabase,
    sealer: Sealer,
    lifetimes: Lifetimes,
    loginBounds: PendingLoginBounds = PENDING_LOGIN_BOUNDS,
  ) {
    this.#db = db;
    this.#sealer = sealer;
    this.#lifetimes = lifetimes;
    this.#loginBounds = loginBounds;
  }

  close(): Promise<void> {
    return this.#db.close();
  }

  /** A new session with a new id (never one the browser brought); returns the cookie's value. */
  async create(
    credential: Credential,
    principal: Principal,
    now: number,
  ): Promise<{ id: string; session: Session }> {
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
    await this.#db.run(
      `INSERT INTO gateway_sessions (id_hash, principal, credential, created_at, seen_at, expires_at, version)
       VALUES (?, ?, ?, ?, ?, ?, 0)`,
      [
        idHash,
        JSON.stringify(principal),
        this.#sealer.seal(credential, idHash),
        now,
        now,
        session.expiresAt,
      ],
    );
    return { id, session };
  }

  /**
   * The live session a cookie's value names, or null (unknown, ended, idle or past its absolute
   * lifetime; an expired one is deleted). Marks it used, at most once per `touchEvery`.
   */
  async find(id: string | undefined, now: number): Promise<Session | null> {
    if (!id) return null;
    const session = await this.#read(this.#sealer.hashId(id));
    if (!session) return null;
    if (now >= session.expiresAt || now >= session.seenAt + this.#lifetimes.idleMs) {
      await this.delete(session.idHash);
      return null;
    }
    const touchEvery = Math.min(60_000, this.#lifetimes.idleMs / 10);
    if (now - session.seenAt >= touchEvery) {
      await this.#db.run('UPDATE gateway_sessions SET seen_at = ? WHERE id_hash = ?', [
        now,
        session.idHash,
      ]);
      session.seenAt = now;
    }
    return session;
  }

  /** The row as stored now (after another request or process changed it), or null once ended. */
  reload(idHash: string): Promise<Session | null> {
    return this.#read(idHash);
  }

  /** Ends a session everywhere: every process reads the same row. */
  async delete(idHash: string): Promise<void> {
    await this.#db.run('DELETE FROM gateway_sessions WHERE id_hash = ?', [idHash]);
  }

  /**
   * Takes the right to refresh the session's tokens: only while the credential is still at
   * `version` and nobody else holds an unexpired lease. Exactly one caller, in any process, wins.
   */
  async claimRefresh(
    idHash: string,
    version: number,
    now: number,
    leaseMs: number,
  ): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE gateway_sessions SET refreshing_until = ?
       WHERE id_hash = ? AND version = ? AND (refreshing_until IS NULL OR refreshing_until <= ?)`,
      [now + leaseMs, idHash, version, now],
    );
    return changed === 1;
  }

  /** Stores refreshed tokens if the credential is still at `version`; false when it moved on or ended. */
  async completeRefresh(idHash: string, version: number, credential: Credential): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE gateway_sessions SET credential = ?, version = version + 1, refreshing_until = NULL
       WHERE id_hash = ? AND version = ?`,
      [this.#sealer.seal(credential, idHash), idHash, version],
    );
    return changed === 1;
  }

  /** Gives the lease back after a refresh that failed without an answer (the upstream was down). */
  async releaseRefresh(idHash: string, version: number): Promise<void> {
    await this.#db.run(
      'UPDATE gateway_sessions SET refreshing_until = NULL WHERE id_hash = ? AND version = ?',
      [idHash, version],
    );
  }

  /**
   * Remembers an authorization request under its `state`, bound to the browser that made it, and
   * pushes out the oldest pending logins past the bounds (`client`: clientOf, client-address.ts).
   */
  async savePendingLogin(
    state: string,
    browserId: string,
    login: PendingLogin,
    now: number,
    client: string,
  ): Promise<void> {
    const stateHash = this.#sealer.hashId(state);
    const clientHash = this.#sealer.hashId(`client\n${client}`);
    await this.#db.run(
      `INSERT INTO gateway_logins (state_hash, browser_hash, client_hash, pending, expires_at)
       VALUES (?, ?, ?, ?, ?)`,
      [
        stateHash,
        this.#sealer.hashId(browserId),
        clientHash,
        this.#sealer.seal(login, stateHash),
        now + PENDING_LOGIN_MS,
      ],
    );
    const { perClient, total } = this.#loginBounds;
    await this.#db.run(
      `DELETE FROM gateway_logins WHERE client_hash = ? AND state_hash <> ? AND state_hash NOT IN (
         SELECT state_hash FROM gateway_logins WHERE client_hash = ? AND state_hash <> ?
         ORDER BY expires_at DESC LIMIT ?)`,
      [clientHash, stateHash, clientHash, stateHash, perClient - 1],
    );
    const count = await this.#db.get<{ n: number | string }>(
      'SELECT count(*) AS n FROM gateway_logins',
      [],
    );
    const over = Number(count?.n ?? 0) - total;
    if (over > 0)
      await this.#db.run(
        `DELETE FROM gateway_logins WHERE state_hash IN (
           SELECT state_hash FROM gateway_logins WHERE state_hash <> ? ORDER BY expires_at LIMIT ?)`,
        [stateHash, over],
      );
  }

  /**
   * The authorization request `state` names, once: it is deleted whatever follows. null when
   * unknown, used, expired, or started by another browser (SECURITY.md 28).
   */
  async takePendingLogin(
    state: string,
    browserId: string | undefined,
    now: number,
  ): Promise<PendingLogin | null> {
    const stateHash = this.#sealer.hashId(state);
    const row = await this.#db.get<{
      browser_hash: string;
      pending: Buffer;
      expires_at: number | string;
    }>(
      'DELETE FROM gateway_logins WHERE state_hash = ? RETURNING browser_hash, pending, expires_at',
      [stateHash],
    );
    if (!row || !browserId || Number(row.expires_at) <= now) return null;
    if (row.browser_hash !== this.#sealer.hashId(browserId)) return null;
    return this.#sealer.open<PendingLogin>(row.pending, stateHash);
  }

  async #read(idHash: string): Promise<Session | null> {
    const row = await this.#db.get<SessionRow>('SELECT * FROM gateway_sessions WHERE id_hash = ?', [
      idHash,
    ]);
    if (!row) return null;
    const credential = this.#sealer.open<Credential>(row.credential, idHash);
    // Sealed under another SESSION_SECRET: it can never be used again.
    if (!credential) {
      await this.delete(idHash);
      return null;
    }
    return {
      idHash,
      credential,
      principal: JSON.parse(row.principal) as Principal,
      // PostgreSQL answers BIGINT columns as strings.
      createdAt: Number(row.created_at),
      seenAt: Number(row.seen_at),
      expiresAt: Number(row.expires_at),
      version: Number(row.version),
    };
  }

  /** Ended sessions and abandoned logins go (the gateway's timer, housekeeping.ts, calls this). */
  async purgeExpired(now: number): Promise<void> {
    await this.#db.run('DELETE FROM gateway_sessions WHERE expires_at <= ? OR seen_at <= ?', [
      now,
      now - this.#lifetimes.idleMs,
    ]);
    await this.#db.run('DELETE FROM gateway_logins WHERE expires_at <= ?', [now]);
  }
}

interface SessionRow {
  id_hash: string;
  principal: string;
  credential: Buffer;
  created_at: number | string;
  seen_at: number | string;
  expires_at: number | string;
  version: number | string;
  refreshing_until: number | string | null;
}
