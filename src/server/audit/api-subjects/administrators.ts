import { getUser } from '../../services/users.service.ts';
import type { AuditRecord } from '../audit-record.ts';
import { changesBetween, type ObjectState } from '../changes.ts';
import { secretChange } from '../secrets.ts';
import { accountIdOf, readOrNull, stateOf, subject } from '../api-subject.ts';

/*
 * Spec §4.6: administrators and their keys, recorded as the administrator object before and
 * after (read by id or username before an update or delete: one row and its keys' expiry). A
 * password is never in that object; that one was set shows as a secret change. Key retrieval
 * shares PUT /users/:id/ (register-routes.ts): its answer holds the key, of which only "a new key
 * was issued" and its expiry are recorded.
 */

function administratorEntry(
  accountId: number | null,
  operation: 'users.create' | 'users.update' | 'users.delete',
  before: ObjectState | null,
  after: ObjectState | null,
  password: string | undefined,
): AuditRecord {
  return {
    accountId,
    operation,
    object: { type: 'administrator', id: (after ?? before)?.id as number | string },
    changes: [
      ...changesBetween(before, after, { omit: ['id'] }),
      ...(password === undefined ? [] : [secretChange('password', true)]),
    ],
  };
}

const administratorBefore = subject<'users.update', ObjectState | null>({
  before: (db, ctx) => readOrNull(() => getUser(db, accountIdOf(ctx), ctx.params.id)),
  records: (_db, ctx, { before, answer }) => {
    if (!before) return [];
    const after = stateOf(answer);
    if ('key' in after)
      return [
        {
          accountId: accountIdOf(ctx),
          operation: 'users.retrieveKey',
          object: { type: 'administrator', id: before.id as number | string },
          changes: [
            secretChange('key', true),
            { field: 'key_expiry', old: before.key_expiry ?? null, new: after.expiry ?? null },
          ],
        },
      ];
    return [administratorEntry(accountIdOf(ctx), 'users.update', before, after, ctx.body.password)];
  },
});

export const administratorSubjects = {
  'users.create': subject<'users.create'>({
    records: (_db, ctx, { answer }) => [
      administratorEntry(
        accountIdOf(ctx),
        'users.create',
        null,
        stateOf(answer),
        ctx.body.password,
      ),
    ],
  }),
  'users.update': administratorBefore,
  // Routed as users.update (its path and method): never looked up, here for the table's sake.
  'users.retrieveKey': administratorBefore as unknown as ReturnType<
    typeof subject<'users.retrieveKey'>
  >,
  'users.delete': subject<'users.delete', ObjectState | null>({
    before: (db, ctx) => readOrNull(() => getUser(db, accountIdOf(ctx), ctx.params.id)),
    records: (_db, ctx, { before }) =>
      before ? [administratorEntry(accountIdOf(ctx), 'users.delete', before, null, undefined)] : [],
  }),
};
