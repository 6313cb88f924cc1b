import { ApiError } from '../../api/errors.ts';

/** OAuth tokens as the dashboard keeps them: in memory only (SECURITY.md 10). Times in ms. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  issuedAt: number;
  /** null when the server gave no `expires_in`: the token is used until the API refuses it. */
  expiresAt: number | null;
}

/** The server refused the refresh token (RFC 6749 §5.2): the grant is over, sign in again. */
export class RefreshRefusedError extends Error {
  override name = 'RefreshRefusedError';
}

const MAX_MARGIN_MS = 60_000;
const RETRY_MS = 15_000;

/**
 * When to refresh: a fifth of the lifetime before expiry, at most a minute before. An hour-long
 * token is refreshed at 59 minutes, a one-minute token at 48 seconds; null when it cannot be.
 */
export function refreshDueAt(tokens: TokenSet): number | null {
  if (tokens.expiresAt === null || tokens.refreshToken === null) return null;
  const lifetime = Math.max(0, tokens.expiresAt - tokens.issuedAt);
  return tokens.expiresAt - Math.min(MAX_MARGIN_MS, lifetime / 5);
}

export interface TokenKeeper {
  /** A usable access token, refreshed first when it is due (timers sleep in background tabs). */
  accessToken(): Promise<string>;
  /** The tokens held now (sign-out hands the refresh token to the server). */
  current(): TokenSet;
  stop(): void;
}

export interface TokenKeeperOptions {
  tokens: TokenSet;
  /** Exchanges the refresh token; throws RefreshRefusedError when the server refuses it. */
  refresh: (tokens: TokenSet) => Promise<TokenSet>;
  /** The tokens can no longer be used or renewed: the session is over. */
  onLost: () => void;
  now?: () => number;
}

/**
 * Holds an access token and renews it before it expires, one refresh at a time. A refused refresh
 * ends the session; a failed one (network) is retried while the current token still works.
 */
export function createTokenKeeper({
  tokens,
  refresh,
  onLost,
  now = Date.now,
}: TokenKeeperOptions): TokenKeeper {
  let current = tokens;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: Promise<TokenSet> | null = null;
  let stopped = false;

  const stillValid = () => current.expiresAt === null || now() < current.expiresAt;

  function arm(delay: number | null) {
    clearTimeout(timer);
    if (stopped || delay === null) return;
    timer = setTimeout(() => void renew().catch(() => undefined), Math.max(0, delay));
  }

  function lose() {
    if (stopped) return;
    stop();
    onLost();
  }

  function renew(): Promise<TokenSet> {
    inflight ??= refresh(current)
      .then((next) => {
        if (!stopped) {
          current = next;
          const due = refreshDueAt(next);
          arm(due === null ? null : due - now());
        }
        return next;
      })
      .catch((error: unknown) => {
        if (error instanceof RefreshRefusedError || !stillValid()) lose();
        else arm(RETRY_MS);
        throw error;
      })
      .finally(() => {
        inflight = null;
      });
    return inflight;
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
  }

  const firstDue = refreshDueAt(current);
  arm(firstDue === null ? null : firstDue - now());

  return {
    async accessToken() {
      if (stopped) throw sessionOver();
      const due = refreshDueAt(current);
      if (due !== null && now() >= due) {
        try {
          await renew();
        } catch {
          // A transient failure leaves the old token in place while it still works.
          if (stopped || !stillValid()) throw sessionOver();
        }
      }
      return current.accessToken;
    },
    current: () => current,
    stop,
  };
}

function sessionOver(): ApiError {
  return new ApiError(401, 'The session has expired: sign in again.');
}
