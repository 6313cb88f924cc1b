import { useQuery } from '@tanstack/react-query';
import type { AuditQuery } from '../../../../api/schemas/audit.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { auditQueries } from '../api/audit-queries.ts';
import { AuditEntryView } from './audit-entry-view.tsx';

/**
 * One page of the log: its entries, and after the last page the "Load more" that adds the next.
 * A page after the first says how many it brought and gives its first entry the focus, so that a
 * keyboard or screen-reader user goes on reading where the new entries begin.
 */
export function AuditLogPage({
  accountId,
  query,
  cursor,
  last,
  filtered,
  onMore,
}: {
  accountId: AccountId;
  query: AuditQuery;
  cursor: string | null;
  last: boolean;
  /** Whether the filters narrow the log (what an empty first page says). */
  filtered: boolean;
  onMore: (next: string) => void;
}) {
  const page = useQuery(auditQueries.page(accountId, query, cursor));
  const first = cursor === null;
  if (page.isPending)
    return <TableSkeleton label={first ? 'Loading the audit log…' : 'Loading more entries…'} />;
  if (page.isError) return <ErrorMessage error={page.error} onRetry={() => void page.refetch()} />;
  if (!page.data.supported)
    return (
      <p className="notice">
        This server does not offer an audit log: it is an extension of the Listkeeper reference
        server, beyond the mailing-list API.
      </p>
    );
  const { data: entries, next } = page.data.value;
  return (
    <>
      <p role="status" className={first ? 'summary' : 'visually-hidden'}>
        {first
          ? entries.length === 0
            ? filtered
              ? 'No entry matches these filters.'
              : 'Nothing has been recorded yet.'
            : 'Newest first.'
          : `${entries.length} more ${entries.length === 1 ? 'entry' : 'entries'} loaded.`}
      </p>
      {entries.length > 0 && (
        <ol
          className="audit-entries"
          aria-label={first ? 'Audit entries, newest first' : 'More audit entries'}
        >
          {entries.map((entry, index) => (
            <AuditEntryView key={String(entry.id)} entry={entry} focus={!first && index === 0} />
          ))}
        </ol>
      )}
      {last && next !== null && (
        <button type="button" className="button audit-more" onClick={() => onMore(next)}>
          Load more
        </button>
      )}
      {last && next === null && !first && <p className="summary">That is the oldest entry.</p>}
    </>
  );
}
