import { useQuery } from '@tanstack/react-query';
import { heldQueries } from '../../features/held/api/held-queries.ts';
import { requestQueries } from '../../features/requests/api/request-queries.ts';
import type { AccountId } from '../../lib/api-client.ts';
import type { ExtensionAnswer } from '../../lib/extensions.ts';

/**
 * How many wait in a moderation queue (issue 27 item 3, issue 25 item 5), read with the smallest
 * page the queue answers: one object of the hourly allowance (spec §8); an action on the queue
 * refreshes it. Nothing on a server without the queue.
 */
function Waiting({ answer }: { answer: ExtensionAnswer<{ count: number }> | undefined }) {
  if (!answer?.supported) return null;
  return (
    <span className="nav-count">
      {answer.value.count}
      <span className="visually-hidden"> waiting</span>
    </span>
  );
}

/** The held messages waiting (the Held item). */
export function HeldCount({ accountId }: { accountId: AccountId }) {
  return <Waiting answer={useQuery(heldQueries.list(accountId, { page: 1, limit: 1 })).data} />;
}

/** The join and leave requests waiting (the Requests item). */
export function RequestsCount({ accountId }: { accountId: AccountId }) {
  return <Waiting answer={useQuery(requestQueries.list(accountId, { page: 1, limit: 1 })).data} />;
}
