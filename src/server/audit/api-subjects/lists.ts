import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { LIST_DEFAULTS, toList, type ListRow } from '../../repositories/lists.mapper.ts';
import { findListById, findListByName, memberCounts } from '../../repositories/lists.repository.ts';
import { requireAccount } from '../../routes/route-support.ts';
import type { AuditRecord } from '../audit-record.ts';
import { changesBetween, type ObjectState } from '../changes.ts';
import { secretChange } from '../secrets.ts';
import { stateOf, subject } from '../api-subject.ts';

/*
 * Spec §4.4: a list and its settings, recorded as the list object before and after (its member
 * ids left out: a list deleted with a million members is one entry, with their number). A list
 * update and delete run in steps (operation-policy `transaction: 'steps'`): the list is read again
 * at the start of their last transaction (one row by its unique name, or by id), which the entry
 * joins; a delete counts its members first, before its first step takes them away (the count its
 * read of the list makes anyway when the answer carries the ids; an index range otherwise).
 */

/** What a list's entry leaves out: its id and date, its members (spec §2.4 `contacts`). */
const LIST_FIXED = ['id', 'created', 'contacts', 'contacts_count'];

function listState(row: ListRow): ObjectState {
  return toList(row, []);
}

/** Spec §2.4: `archive_password` is write-only: whether it was set (a blank one clears it), never to what. */
function archivePasswordChange(body: { archive_password?: string | undefined }) {
  return body.archive_password === undefined
    ? []
    : [secretChange('archive_password', body.archive_password.trim() !== '')];
}

function listEntry(
  accountId: number,
  operation: 'lists.create' | 'lists.update' | 'lists.delete',
  id: number,
  name: string,
  changes: AuditRecord['changes'],
  details?: AuditRecord['details'],
): AuditRecord {
  return {
    accountId,
    operation,
    object: { type: 'list', id, listId: id, list: name },
    changes,
    ...(details ? { details } : {}),
  };
}

/** The list of the path as it is now, in `db`'s transaction. */
async function listNamed(db: Kysely<Database>, accountId: number, name: string) {
  return (await findListByName(db, accountId, name)) ?? null;
}

export const listSubjects = {
  'lists.create': subject<'lists.create'>({
    records: (_db, ctx, { answer }) => {
      const list = stateOf(answer);
      const changes = [
        ...changesBetween(null, list, { omit: LIST_FIXED, baseline: LIST_DEFAULTS }),
        ...archivePasswordChange(ctx.body),
      ];
      return [
        listEntry(
          requireAccount(ctx.account).id,
          'lists.create',
          Number(list.id),
          String(list.name),
          changes,
        ),
      ];
    },
  }),
  'lists.update': subject<'lists.update', ListRow | null>({
    before: (db, ctx) => listNamed(db, requireAccount(ctx.account).id, ctx.params.name),
    records: async (db, ctx, { before }) => {
      if (!before) return [];
      const accountId = requireAccount(ctx.account).id;
      const after = await findListById(db, accountId, before.id);
      if (!after) return [];
      const changes = [
        ...changesBetween(listState(before), listState(after), { omit: LIST_FIXED }),
        ...archivePasswordChange(ctx.body),
      ];
      return [listEntry(accountId, 'lists.update', after.id, after.name, changes)];
    },
  }),
  'lists.delete': subject<'lists.delete', ListRow | null, { id: number; members: number } | null>({
    prelude: async (ctx) => {
      const accountId = requireAccount(ctx.account).id;
      const row = await listNamed(ctx.db, accountId, ctx.params.name);
      if (!row) return null;
      return {
        id: row.id,
        members: (await memberCounts(ctx.db, accountId, [row.id])).get(row.id) ?? 0,
      };
    },
    before: async (db, ctx, prelude) =>
      prelude
        ? ((await findListById(db, requireAccount(ctx.account).id, prelude.id)) ?? null)
        : null,
    records: (_db, ctx, { before, prelude }) => {
      if (!before) return [];
      const changes = changesBetween(listState(before), null, {
        omit: LIST_FIXED,
        baseline: LIST_DEFAULTS,
      });
      // Counted before its first step: the members it had when the delete began.
      return [
        listEntry(requireAccount(ctx.account).id, 'lists.delete', before.id, before.name, changes, {
          members: prelude?.members ?? 0,
        }),
      ];
    },
  }),
};
