import type { Kysely } from 'kysely';
import {
  REQUEST_PAGE_LIMITS,
  type MemberRequest,
  type RequestAction,
  type RequestBulk,
  type RequestOutcome,
  type RequestPage,
  type RequestQuery,
} from '../../api/schemas/request.ts';
import { visibleListNames, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { badRequest, conflict, notFound } from '../http/http-error.ts';
import { findPublicListById } from '../members/public-list.ts';
import { decideRequest, type MembersContext } from '../members/workflow.ts';
import { requestRecord } from '../audit/queue-records.ts';
import { recordAudit } from '../audit/record.ts';
import {
  countWaiting,
  countWaitingPerList,
  findWaiting,
  pageWaiting,
  type MemberRequestWithList,
} from '../repositories/member-requests.repository.ts';
import { pathId } from './path-id.ts';

/**
 * The moderators' queue of join and leave requests (issue 25 item 5, extension `requests.*`),
 * shaped as the held queue is: a list-limited administrator sees and answers only their lists'
 * (spec §2.6 limit_lists); an id the caller may not see is as absent as a missing one.
 */
export async function listRequests(
  db: Kysely<Database>,
  accountId: number,
  principal: Principal,
  query: RequestQuery,
  meter: CostMeter,
): Promise<RequestPage> {
  const page = query.page ?? 1;
  const limit = query.limit ?? REQUEST_PAGE_LIMITS.default;
  const lists = visibleListNames(principal);
  const filters = { list: query.list, kind: query.kind };
  const [count, perList] = await Promise.all([
    countWaiting(db, accountId, lists, filters),
    countWaitingPerList(db, accountId, lists),
  ]);
  const offset = (page - 1) * limit;
  // SECURITY.md 30: the page's most, reserved before it is read.
  await meter.reserveUpTo(Math.min(limit, Math.max(0, count - offset)));
  const rows =
    offset >= count ? [] : await pageWaiting(db, accountId, lists, { offset, limit, ...filters });
  return { count, page, data: rows.map(toMemberRequest), lists: perList };
}

export async function actOnRequest(
  ctx: MembersContext,
  accountId: number,
  principal: Principal,
  idText: string,
  action: RequestAction,
  reason?: string,
): Promise<RequestOutcome> {
  const id = pathId(idText);
  const [row] =
    id === null ? [] : await findWaiting(ctx.db, accountId, [id], visibleListNames(principal));
  if (!row) throw notFound('Request');
  const [outcome] = await settle(ctx, [row], action, reason);
  if (!outcome) throw notFound('Request');
  return outcome;
}

/** One action on several requests, all or none (the route's transaction). */
export async function actOnRequestsBulk(
  ctx: MembersContext,
  accountId: number,
  principal: Principal,
  input: RequestBulk,
): Promise<{ results: RequestOutcome[] }> {
  const ids: number[] = [];
  for (const value of input.ids) {
    const id = pathId(value);
    if (id === null) throw badRequest(`ids: no request ${String(value)}`);
    if (!ids.includes(id)) ids.push(id);
  }
  const rows = await findWaiting(ctx.db, accountId, ids, visibleListNames(principal));
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw badRequest(`ids: no request ${missing.join(', ')}`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
  return { results: await settle(ctx, ordered, input.action, input.reason) };
}

async function settle(
  ctx: MembersContext,
  rows: readonly MemberRequestWithList[],
  action: RequestAction,
  reason: string | undefined,
): Promise<RequestOutcome[]> {
  const outcomes: RequestOutcome[] = [];
  for (const row of rows) {
    const list = await findPublicListById(ctx.db, row.list_id);
    if (!list) throw notFound('Request');
    if (!(await decideRequest(ctx, list, row, { action, reason })))
      throw conflict('A request was answered by someone else meanwhile');
    outcomes.push({ id: row.id, action, kind: row.kind, address: row.address });
  }
  // Issue 26 item 4: one entry per request (what the member's change did, the workflow records).
  await recordAudit(
    ctx.db,
    ctx.now,
    rows.map((row) => requestRecord(row.account_id, row, action, reason)),
  );
  return outcomes;
}

function toMemberRequest(row: MemberRequestWithList): MemberRequest {
  return {
    id: row.id,
    list: row.list_name,
    kind: row.kind,
    address: row.address,
    source: row.source,
    created: row.created,
    confirmed: row.confirmed,
    expires: row.expires_at,
  };
}

