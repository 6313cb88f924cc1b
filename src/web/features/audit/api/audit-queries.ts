import { queryOptions } from '@tanstack/react-query';
import { AUDIT_PAGE_LIMITS, type AuditQuery } from '../../../../api/schemas/audit.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { callExtension } from '../../../lib/extensions.ts';

/**
 * The reference server's audit log (extension `audit.list`, permission `audit`). Keys:
 * `[accountId, 'audit', 'log', query, cursor]`. A server without the extension answers
 * `{supported: false}` (lib/extensions.ts): the page says the log is not offered (and the
 * navigation offers it only where the server says who is calling, app/layout/main-nav.tsx).
 */
export const auditQueries = {
  all: (accountId: AccountId) => [accountId, 'audit'] as const,
  /**
   * One page, newest first: the first (`cursor` null) or the one after a page's `next`. Pages are
   * queries of their own (not an infinite query, whose observer would weigh on every page's
   * bundle): "Load more" adds the next.
   */
  page: (accountId: AccountId, query: AuditQuery, cursor: string | null) =>
    queryOptions({
      queryKey: [...auditQueries.all(accountId), 'log', query, cursor] as const,
      queryFn: ({ signal }) =>
        callExtension(() =>
          apiFor(accountId).call('audit.list', {
            query: {
              ...query,
              limit: AUDIT_PAGE_LIMITS.default,
              ...(cursor === null ? {} : { cursor }),
            },
            signal,
          }),
        ),
    }),
};
