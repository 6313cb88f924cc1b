import type { OAuthTokens, Session, SessionStore } from './session-store.ts';

/** The upstream refused the refresh token (RFC 6749 §5.2): the grant is over, sign in again. */
export class RefreshRefusedError extends Error {
  override name = 'RefreshRefusedError';
}

const MAX_MARGIN_MS = 60_000;

/**
 * When to refresh: a fifth of the lifetime before expiry, at most a minute before. A 15-minute
 * token is refreshed at 14 minutes, a one-minute token at 48 seconds; null when it cannot be
 * (no refresh token, or no stated lifetime: then only the upstream's 401 tells).
 */
export function refreshDueAt(tokens: OAuthTokens): number | null {
  if (tokens.expiresAt === null || tokens.refreshToken === null) return null;
  const lifetime = Math.max(0, tokens.expiresAt - tokens.issuedAt);
  return tokens.expiresAt - Math.min(MAX_MARGIN_MS, lifetime / 5);
}

export interface RefresherOptions {
  store: SessionStore;
  /** Spec §4.9's refresh endpoint; throws RefreshRefusedError when the upstream refuses. */
  refresh: (tokens: OAuthTokens) => Promise<OAuthTokens>;
  now?: () => number;
  /** How long one refresh may hold the session before another process may try (> the upstream timeout). */
  leaseMs: number;
  pollMs?: number;
}

/**
 * Keeps a session's access token usable (SECURITY.md 9: every refresh happens here, on the
 * server). Refresh tokens rotate and a reused one revokes the grant (SECURITY.md 5), so exactly
 * one refresh per token may ever be sent: within a process, concurrent requests share one
 * promise; across processes, a lease on the row decides (compare-and-swap on its version), and
 * the others wait for the row to move on and use what the winner stored.
 */
export function createRefresher({
  store,
  refresh,
  now = Date.now,
  leaseMs,
  pollMs = 50,
}: RefresherOptions) {
  const inflight = new Map<string, Promise<Session | null>>();

  /**
   * The session with a usable credential: refreshed when due, or (`force`, after the upstream
   * refused the access token) unless another request already replaced that token. null when the
   * session has ended (the grant is refused; the row is deleted).
   */
  async function usable(session: Session, force = false): Promise<Session | null> {
    const { credential } = session;
    if (credential.method !== 'oauth') return session;
    const due = refreshDueAt(credential.tokens);
    if (!force && (due === null || now() < due)) return session;
    if (credential.tokens.refreshToken === null) {
      if (!force) return session;
      await store.delete(session.idHash);
      return null;
    }
    const key = `${session.idHash}:${session.version}`;
    let running = inflight.get(key);
    if (!running) {
      running = renew(session).finally(() => inflight.delete(key));
      inflight.set(key, running);
    }
    return running;
  }

  async function renew(session: Session): Promise<Session | null> {
    const deadline = now() + leaseMs + 5_000;
    for (;;) {
      if (await store.claimRefresh(session.idHash, session.version, now(), leaseMs)) {
        return refreshHolding(session);
      }
      const current = await store.reload(session.idHash);
      if (!current) return null;
      if (current.version !== session.version) return current;
      if (now() > deadline) throw new Error('Another refresh of this session did not finish');
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  async function refreshHolding(session: Session): Promise<Session | null> {
    if (session.credential.method !== 'oauth') return session;
    const tokens = session.credential.tokens;
    let next: OAuthTokens;
    try {
      next = await refresh(tokens);
    } catch (error) {
      if (error instanceof RefreshRefusedError) {
        await store.delete(session.idHash);
        return null;
      }
      // No answer (upstream down or slow): the current token serves while it lasts.
      await store.releaseRefresh(session.idHash, session.version);
      if (tokens.expiresAt === null || now() < tokens.expiresAt) return session;
      throw error;
    }
    const credential = { method: 'oauth' as const, tokens: next };
    // The row was deleted meanwhile (sign-out): the new tokens die with it.
    if (!(await store.completeRefresh(session.idHash, session.version, credential))) return null;
    return { ...session, credential, version: session.version + 1 };
  }

  return { usable };
}

export type Refresher = ReturnType<typeof createRefresher>;
