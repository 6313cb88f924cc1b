import '../audit.css';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import {
  isFiltered,
  readAuditFilters,
  toAuditQuery,
  writeAuditFilters,
  type AuditFilters,
} from '../lib/audit-filters.ts';
import { AuditFiltersForm } from './audit-filters-form.tsx';
import { AuditLogPage } from './audit-log-page.tsx';

/**
 * The audit log (reference-server extension `audit.list`, permission `audit`): every change,
 * newest first, filtered as the URL says, a page at a time by "Load more" (keyset: each page starts
 * after the last entry of the one before). An account's log, or (`group`) the group's for a
 * global principal: accounts and global administrators. Against a server without the extension
 * it says the log is not offered.
 */
export function AuditPage({ accountId, group }: { accountId: AccountId; group: boolean }) {
  const [params, setParams] = useSearchParams();
  const filters = readAuditFilters(params);
  const powers = usePermissions();
  // The pages loaded so far, by the cursor each starts after; new filters start again.
  const [loaded, setLoaded] = useState<{ search: string; cursors: (string | null)[] }>({
    search: '',
    cursors: [null],
  });
  const search = params.toString();
  const cursors = loaded.search === search ? loaded.cursors : [null];

  if (!powers.may('audit.list'))
    return (
      <p role="alert" className="error-message">
        Not permitted: the audit log needs the audit permission, which your sign-in does not have.
        An administrator with superadmin can give it.
      </p>
    );
  const apply = (next: AuditFilters) => setParams(writeAuditFilters(next));
  const query = toAuditQuery(filters);
  return (
    <div className="audit-page stack">
      {powers.known && powers.global && (
        <p>
          {group ? (
            <>
              The group’s log: its accounts and global administrators. Each account’s own log is on
              its Audit page.
            </>
          ) : (
            <Link to="/accounts/audit">
              The group’s log: its accounts and global administrators
            </Link>
          )}
        </p>
      )}
      <AuditFiltersForm key={search} filters={filters} onApply={apply} />
      {cursors.map((cursor, index) => (
        <AuditLogPage
          key={cursor ?? ''}
          accountId={accountId}
          query={query}
          cursor={cursor}
          last={index === cursors.length - 1}
          filtered={isFiltered(filters)}
          onMore={(next) => setLoaded({ search, cursors: [...cursors, next] })}
        />
      ))}
    </div>
  );
}
