/**
 * The two error classes every caller of the API sees (DESIGN.md "The client"): one for any error
 * answer, carrying the HTTP status and the server's message, and one for the rate limit (spec §8).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  /** The operation (`resource.action` of operations.ts) that was refused, when the client knows it. */
  readonly operation: string | undefined;

  constructor(status: number, message: string, options?: ErrorOptions & { operation?: string }) {
    super(message, options);
    this.status = status;
    this.operation = options?.operation;
  }
}

/** Spec §8 rule 4: over the hourly allowance. `resetAt` is when requests succeed again. */
export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError';
  readonly resetAt: Date;
  readonly limit: number | null;

  constructor(message: string, resetAt: Date, limit: number | null) {
    super(429, message);
    this.resetAt = resetAt;
    this.limit = limit;
  }
}

/** The server answered, but not in the contract's shape (a parse failure is an ordinary error). */
export class ApiContractError extends ApiError {
  override name = 'ApiContractError';
}

/**
 * When the allowance resets: `X-RateLimit-Reset` (Unix seconds, a reference-server extension) when
 * present, else `Retry-After` (seconds), else the next clock hour (spec §8 rule 3).
 */
export function rateLimitResetAt(headers: Headers, now: Date = new Date()): Date {
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (headers.has('x-ratelimit-reset') && Number.isFinite(reset) && reset > 0)
    return new Date(reset * 1000);
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return new Date(now.getTime() + seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return new Date(date);
  }
  const nextHour = new Date(now);
  nextHour.setUTCMinutes(60, 0, 0);
  return nextHour;
}
