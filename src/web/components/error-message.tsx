import { describeError, isRefusal } from '../lib/api-error-message.ts';
import { usePermissions } from '../lib/permissions.ts';

/**
 * An error from the API where it happened, in the dashboard's words (lib/api-error-message.ts).
 * A refusal, a missing permission or a missing object offers no "Try again": trying again
 * cannot change it.
 */
export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const powers = usePermissions();
  return (
    <div role="alert" className="error-message">
      <p>{describeError(error, powers)}</p>
      {onRetry && !isRefusal(error) && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
