import { useQuery } from '@tanstack/react-query';
import { heldQueries } from '../../features/held/api/held-queries.ts';
import type { AccountId } from '../../lib/api-client.ts';

/**
 * How many messages wait in the held queue (issue 27 item 3), read with the smallest page the
 * queue answers: one object of the hourly allowance (spec §8); a held action refreshes it.
 */
export function HeldCount({ accountId }: { accountId: AccountId }) {
  const held = useQuery(heldQueries.list(accountId, { page: 1, limit: 1 }));
  if (!held.data?.supported) return null;
  const count = held.data.value.count;
  return (
    <span className="nav-count">
      {count}
      <span className="visually-hidden"> waiting</span>
    </span>
  );
}
