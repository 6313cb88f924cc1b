import type { AuditObjectType, AuditQuery } from '../../../../api/schemas/audit.ts';

/**
 * What the Audit page shows, as kept in the URL: `?since=…&until=…&actor=…&list=…&object_type=…
 * &object_id=…&operation=…`, each the `GET /audit/` filter of the same name. Times are ISO 8601
 * in the URL (a link means the same instant anywhere) and local in the form.
 */
export interface AuditFilters {
  since: string;
  until: string;
  actor: string;
  list: string;
  objectType: AuditObjectType | '';
  objectId: string;
  operation: string;
}

export const NO_FILTERS: AuditFilters = {
  since: '',
  until: '',
  actor: '',
  list: '',
  objectType: '',
  objectId: '',
  operation: '',
};

/** The objects the log names, in words, in the order the form offers them. */
export const OBJECT_TYPES: readonly { value: AuditObjectType; label: string }[] = [
  { value: 'contact', label: 'Contact' },
  { value: 'email', label: 'Email address' },
  { value: 'membership', label: 'Membership' },
  { value: 'list', label: 'List' },
  { value: 'message', label: 'Message' },
  { value: 'held_message', label: 'Held message' },
  { value: 'request', label: 'Join or leave request' },
  { value: 'administrator', label: 'Administrator' },
  { value: 'account', label: 'Account' },
  { value: 'custom_field', label: 'Custom field' },
  { value: 'oauth_client', label: 'OAuth client' },
];

/** Longest text kept from a URL (the server's own bounds are the contract's). */
const MAX_LENGTH = 254;

const text = (params: URLSearchParams, name: string) =>
  (params.get(name) ?? '').trim().slice(0, MAX_LENGTH);

/** An instant from the URL, or '' when it is none. */
function instant(value: string): string {
  return value !== '' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : '';
}

export function readAuditFilters(params: URLSearchParams): AuditFilters {
  const objectType = text(params, 'object_type');
  return {
    since: instant(text(params, 'since')),
    until: instant(text(params, 'until')),
    actor: text(params, 'actor'),
    list: text(params, 'list'),
    objectType: OBJECT_TYPES.find((type) => type.value === objectType)?.value ?? '',
    objectId: text(params, 'object_id'),
    operation: text(params, 'operation'),
  };
}

/** The URL form; empty filters are left out, so a plain `/audit` stays plain. */
export function writeAuditFilters(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  const put = (name: string, value: string) => value !== '' && params.set(name, value);
  put('since', filters.since);
  put('until', filters.until);
  put('actor', filters.actor);
  put('list', filters.list);
  put('object_type', filters.objectType);
  put('object_id', filters.objectId);
  put('operation', filters.operation);
  return params;
}

/** The filters as `GET /audit/` takes them. */
export function toAuditQuery(filters: AuditFilters): AuditQuery {
  return {
    ...(filters.since ? { since: filters.since } : {}),
    ...(filters.until ? { until: filters.until } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.list ? { list: filters.list } : {}),
    ...(filters.objectType ? { object_type: filters.objectType } : {}),
    ...(filters.objectId ? { object_id: filters.objectId } : {}),
    ...(filters.operation ? { operation: filters.operation } : {}),
  };
}

/** An instant as a `datetime-local` field shows it: the browser's own time zone, to the minute. */
export function toLocalInput(iso: string): string {
  if (iso === '') return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A `datetime-local` value (the browser's time zone) as the instant it names, or '' for none. */
export function fromLocalInput(value: string): string {
  if (value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** Whether any filter narrows the log. */
export function isFiltered(filters: AuditFilters): boolean {
  return writeAuditFilters(filters).size > 0;
}
