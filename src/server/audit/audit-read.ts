import type { Kysely } from 'kysely';
import {
  AUDIT_PAGE_LIMITS,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
} from '../../api/schemas/audit.ts';
import { listLimit, metadataLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { badRequest, forbidden } from '../http/http-error.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { toAuditEntry } from '../repositories/audit.mapper.ts';
import {
  lastListNamed,
  selectAuditPage,
  type AuditFilters,
  type AuditKey,
} from '../repositories/audit.repository.ts';
import { findListsByNames } from '../repositories/memberships.repository.ts';

/**
 * `GET /audit/` (extension `audit.list`, permission `audit`): the log of the account the request
 * works on, or the group's for a global administrator without `account_id` (accounts, global
 * administrators). SECURITY.md 49: an account's administrator never reads another account's
 * entries (resolveAccount confines it to its own; the query names the account); a list-limited one
 * reads only its lists' (spec §2.6 limit_lists: entries of its lists by their ids, so a list
 * renamed keeps its history and another list that once had the name stays hidden); a metadata-
 * limited one does not see the values of custom fields it is not given (limit_metadata). There is
 * no way to change or delete an entry through the API.
 */
export async function listAudit(
  db: Kysely<Database>,
  account: AccountRow | null,
  principal: Principal,
  query: AuditQuery,
  meter: CostMeter,
): Promise<AuditPage> {
  const limit = query.limit ?? AUDIT_PAGE_LIMITS.default;
  const accountId = account?.id ?? null;
  const limitedTo = listLimit(principal);
  if (query.list !== undefined && limitedTo && !limitedTo.has(query.list))
    throw forbidden(`This key is limited to other lists than ${query.list} (limit_lists)`);
  const filters: AuditFilters = {
    accountId,
    listIds: limitedTo && (await listIds(db, accountId, [...limitedTo])),
    since: instant(query.since),
    until: instant(query.until),
    objectType: query.object_type,
    objectId: query.object_id,
    operation: query.operation,
    after: query.cursor === undefined ? undefined : keyOf(query.cursor),
    // One more than the page, to know whether another follows.
    limit: limit + 1,
  };
  if (query.actor !== undefined) {
    if (query.actor.trim().toLowerCase() === 'system') filters.system = true;
    else filters.actorKey = query.actor.trim().toLowerCase();
  }
  if (query.list !== undefined) {
    // By the list's id, so that a renamed list keeps its history: the list of that name now, or,
    // once it is gone, the last one the log knew by that name.
    const [current] = accountId === null ? [] : await findListsByNames(db, accountId, [query.list]);
    const id = current?.id ?? (await lastListNamed(db, accountId, query.list));
    filters.list = id === null ? { name: query.list } : { id };
  }
  // SECURITY.md 30: the page's most, before it is read.
  await meter.reserveUpTo(limit);
  const rows = await selectAuditPage(db, filters);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hidden = metadataLimit(principal);
  return {
    data: page.map((row) => withinMetadata(toAuditEntry(row), hidden)),
    next: rows.length > limit && last ? cursorOf({ time: last.time, id: Number(last.id) }) : null,
  };
}

async function listIds(
  db: Kysely<Database>,
  accountId: number | null,
  names: readonly string[],
): Promise<number[]> {
  if (accountId === null || names.length === 0) return [];
  return (await findListsByNames(db, accountId, names)).map((list) => list.id);
}

/** The instant as the log stores times (ISO 8601 in UTC), so that text compares as time. */
function instant(value: string | undefined): string | undefined {
  return value === undefined ? undefined : new Date(value).toISOString();
}

/** A page's `next`: the last entry's time and id, opaque to the client. */
export function cursorOf(key: AuditKey): string {
  return Buffer.from(`${key.time} ${key.id}`).toString('base64url');
}

function keyOf(cursor: string): AuditKey {
  const [time, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(' ');
  const number = Number(id);
  if (
    rest.length > 0 ||
    !time ||
    Number.isNaN(Date.parse(time)) ||
    !Number.isSafeInteger(number) ||
    number < 1
  )
    throw badRequest('cursor: is not the `next` of a page of this log');
  return { time, id: number };
}

/** Spec §2.1 fields every contact has; the others are custom fields (spec §2.6 limit_metadata). */
const CONTACT_FIELDS = new Set([
  'id',
  'ccid',
  'firstname',
  'surname',
  'created',
  'notes',
  'emails',
  'lists',
]);

/** A contact's entry without the custom fields a metadata-limited caller is not given. */
function withinMetadata(entry: AuditEntry, visible: ReadonlySet<string> | null): AuditEntry {
  if (visible === null || entry.object.type !== 'contact') return entry;
  return {
    ...entry,
    changes: entry.changes.filter(
      (change) => CONTACT_FIELDS.has(change.field) || visible.has(change.field),
    ),
  };
}
