import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Id } from '../../../../api/primitives.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { heldQueries } from '../api/held-queries.ts';

/**
 * The held message as it arrived (extension `held.source`), read only once the moderator opens
 * it: a message may be megabytes, and most decisions need the text and the headers alone.
 */
export function HeldSourceView({ accountId, id }: { accountId: AccountId; id: Id }) {
  const [open, setOpen] = useState(false);
  const source = useQuery({ ...heldQueries.source(accountId, id), enabled: open });
  return (
    <details className="held-headers" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Source as received</summary>
      {!open ? null : source.isPending ? (
        <p role="status">Loading the source…</p>
      ) : source.isError ? (
        <ErrorMessage error={source.error} onRetry={() => void source.refetch()} />
      ) : (
        <pre className="held-headers-text">{source.data.source}</pre>
      )}
    </details>
  );
}
