import type { Kysely } from 'kysely';
import {
  BOUNCE_PAGE_LIMITS,
  type BounceClearOutcome,
  type BouncePage,
  type BounceQuery,
  type BounceState,
} from '../../api/schemas/bounce.ts';
import { listLimit, type Principal } from '../auth/principal.ts';
import { clearBounces } from '../bounces/clear.ts';
import type { Database } from '../db/schema.ts';
import type { CostMeter } from '../http/charged-run.ts';
import { forbidden, notFound } from '../http/http-error.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import {
  bounceListsOf,
  countBounceStates,
  pageBounceStates,
  type BounceFilters,
} from '../repositories/bounces.repository.ts';
import { findContactByRef } from '../repositories/contacts.repository.ts';
import { findListsByNames } from '../repositories/memberships.repository.ts';
import { assertContactManageable } from './contact-access.ts';
import { contactRef } from './contact-ref.ts';
import { findEmail } from './emails.service.ts';

/**
 * The bounce state of an account's addresses (extension `bounces.list`, issue 26 item 1): the
 * paused first, then the latest bounce first. A list-limited key sees the members of its lists
 * only, and of their bounced lists only its own (spec §2.6 limit_lists, SECURITY.md 33).
 */
export async function listBounces(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  query: BounceQuery,
  meter: CostMeter,
): Promise<BouncePage> {
  const page = query.page ?? 1;
  const limit = query.limit ?? BOUNCE_PAGE_LIMITS.default;
  const allowed = listLimit(principal);
  const filters: BounceFilters = { accountId: account.id, visibleListIds: null };
  if (allowed !== null)
    filters.visibleListIds = (await findListsByNames(db, account.id, [...allowed])).map((l) => l.id);
  if (query.list !== undefined) {
    if (allowed && !allowed.has(query.list))
      throw forbidden(`This key is limited to other lists than ${query.list} (limit_lists)`);
    const [list] = await findListsByNames(db, account.id, [query.list]);
    if (!list) throw notFound('List');
    filters.listId = list.id;
  }
  if (query.contact !== undefined) {
    const contact = await findContactByRef(db, account, query.contact);
    if (!contact) return { count: 0, page, data: [] };
    filters.contactId = contact.id;
  }
  const count = await countBounceStates(db, filters);
  const offset = (page - 1) * limit;
  // SECURITY.md 30: the page's most, reserved before it is read.
  await meter.reserveUpTo(Math.min(limit, Math.max(0, count - offset)));
  const rows = offset >= count ? [] : await pageBounceStates(db, filters, { offset, limit });
  const lists = await bounceListsOf(db, rows.map((row) => row.email_id));
  const data = rows.map(
    (row): BounceState => ({
      email: row.email_id,
      address: row.address,
      contact: contactRef(account, { id: row.contact_id, ccid: row.contact_ccid }),
      score: row.score,
      last_bounce: row.last_at,
      last_kind: row.last_kind,
      last_status: row.last_status,
      last_reason: row.last_reason,
      paused_since: row.paused_at,
      warnings_sent: row.warnings,
      removed: row.removed_at,
      lists: (lists.get(row.email_id) ?? [])
        .map((list) => list.name)
        .filter((name) => allowed === null || allowed.has(name)),
    }),
  );
  return { count, page, data };
}

/**
 * An administrator clears an address's bounces (extension `bounces.clear`): the score and the
 * warnings are forgotten and a pause that bounces made is lifted. Resuming reaches every list the
 * address is on, so a list-limited key may do it only when they are all its own (as spec §4.2's
 * update of `paused`). `:id` is the address's service id or the URL-encoded address.
 */
export async function clearBouncesOf(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  idOrAddress: string,
): Promise<BounceClearOutcome> {
  const row = await findEmail(db, account, idOrAddress);
  await assertContactManageable(db, principal, row.contact_id);
  const { cleared, resumed } = await clearBounces(db, row.id);
  return { email: row.id, address: row.email, cleared, paused: row.paused === 1 && !resumed };
}
