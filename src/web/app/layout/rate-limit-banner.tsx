import type { AccountId } from '../../lib/api-client.ts';
import {
  allowanceText,
  dismissRateLimit,
  formatResetTime,
  formatWait,
  useRateLimitNotice,
} from '../../lib/rate-limit.ts';

/** Spec §8: over the hourly allowance, say so and when it resets, instead of failing silently. */
export function RateLimitBanner({ accountId }: { accountId: AccountId }) {
  const notice = useRateLimitNotice(accountId);
  if (!notice) return null;
  return (
    <div className="banner warning" role="alert">
      <p>
        <strong>Rate limit reached.</strong> {allowanceText(notice)} Requests work again at{' '}
        <time dateTime={notice.resetAt.toISOString()}>{formatResetTime(notice.resetAt)}</time> (
        {formatWait(notice.resetAt, new Date())}).
      </p>
      <button type="button" className="button small" onClick={() => dismissRateLimit(accountId)}>
        Dismiss
      </button>
    </div>
  );
}
