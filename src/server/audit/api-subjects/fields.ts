import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findFieldById, type CustomFieldRow } from '../../repositories/custom-fields.repository.ts';
import { requireAccount } from '../../routes/route-support.ts';
import { pathId } from '../../services/path-id.ts';
import type { AuditRecord } from '../audit-record.ts';
import { changesBetween, type ObjectState } from '../changes.ts';
import { stateOf, subject } from '../api-subject.ts';

/*
 * The account's custom fields (extension `fields.*`, issue 27 item 1), recorded as the field's
 * name and identifier before and after; how many contacts hold a value is said on a delete (their
 * values go with it).
 */

function fieldState(field: { name: string; identifier: string | null }): ObjectState {
  return { name: field.name, identifier: field.identifier };
}

function fieldEntry(
  accountId: number,
  operation: 'fields.create' | 'fields.update' | 'fields.delete',
  id: number,
  before: ObjectState | null,
  after: ObjectState | null,
  details?: AuditRecord['details'],
): AuditRecord {
  return {
    accountId,
    operation,
    object: { type: 'custom_field', id },
    changes: changesBetween(before, after, {}),
    ...(details ? { details } : {}),
  };
}

async function fieldOfPath(db: Kysely<Database>, accountId: number, idText: string) {
  // The path's id as the service reads it; anything else names no field (the write is a 404).
  const id = pathId(idText);
  return id === null ? null : ((await findFieldById(db, accountId, id)) ?? null);
}

export const fieldSubjects = {
  'fields.create': subject<'fields.create'>({
    records: (_db, ctx, { answer }) => {
      const field = stateOf(answer) as { id: number; name: string; identifier: string | null };
      return [
        fieldEntry(
          requireAccount(ctx.account).id,
          'fields.create',
          field.id,
          null,
          fieldState(field),
        ),
      ];
    },
  }),
  'fields.update': subject<'fields.update', CustomFieldRow | null>({
    before: (db, ctx) => fieldOfPath(db, requireAccount(ctx.account).id, ctx.params.id),
    records: (_db, ctx, { before, answer }) => {
      if (!before) return [];
      const after = stateOf(answer) as { name: string; identifier: string | null };
      return [
        fieldEntry(
          requireAccount(ctx.account).id,
          'fields.update',
          before.id,
          fieldState(before),
          fieldState(after),
        ),
      ];
    },
  }),
  // A delete in steps (its values in chunks first): read at the start of its last transaction.
  'fields.delete': subject<'fields.delete', CustomFieldRow | null>({
    before: (db, ctx) => fieldOfPath(db, requireAccount(ctx.account).id, ctx.params.id),
    records: (_db, ctx, { before }) =>
      before
        ? [
            fieldEntry(
              requireAccount(ctx.account).id,
              'fields.delete',
              before.id,
              fieldState(before),
              null,
            ),
          ]
        : [],
  }),
};
