import { createApiClient, type ApiClient } from '../../api/client.ts';
import { dashboardFetch, type AccountId } from './api-client.ts';
import { getConfig } from './config.ts';
import { authorization } from './session.ts';

/**
 * The reference server names the body fields a write did not store in `X-Ignored-Fields`
 * (SECURITY.md 17: an unknown custom field, a read-only field): names separated by ", ",
 * percent-encoded, `""` for an empty name, `%E2%80%A6` (…) when more were left out.
 */
export const IGNORED_FIELDS_HEADER = 'X-Ignored-Fields';

export function parseIgnoredFields(value: string | null): string[] {
  if (value === null || value.trim() === '') return [];
  return value.split(', ').map((name) => {
    if (name === '""') return '';
    try {
      return decodeURIComponent(name);
    } catch {
      return name;
    }
  });
}

/**
 * A client for one write (or a few) that keeps what the server said it did not store: `ignored()`
 * is every name its answers named, [] when they said nothing (as a spec-only server, or a gateway
 * that does not pass the header on, does). Each write makes its own, so two writes under way at
 * once never mix their reports.
 *
 * @example
 * const { api, ignored } = reportingApi(accountId);
 * await api.contacts.update(id, { shoe_size: '41' });
 * if (ignored().includes('shoe_size')) showOnField('shoe_size', 'was not stored');
 */
export function reportingApi(accountId: AccountId): { api: ApiClient; ignored: () => string[] } {
  const names = new Set<string>();
  const api = createApiClient({
    baseUrl: getConfig().apiBaseUrl,
    auth: authorization,
    accountId,
    fetch: async (input, init) => {
      const response = await dashboardFetch()(input, init);
      for (const name of parseIgnoredFields(response.headers.get(IGNORED_FIELDS_HEADER)))
        names.add(name);
      return response;
    },
  });
  return { api, ignored: () => [...names] };
}

/** A field the server did not store, said on the field (never "Saved"). */
export const NOT_STORED = 'was not stored: the server ignored it (it names it in X-Ignored-Fields)';
