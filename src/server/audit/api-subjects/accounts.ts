import { ACCOUNT_DEFAULTS } from '../../repositories/accounts.mapper.ts';
import { countContacts } from '../../repositories/contacts.repository.ts';
import { getAccount } from '../../services/accounts.service.ts';
import type { AuditRecord } from '../audit-record.ts';
import { changesBetween, type ObjectState } from '../changes.ts';
import { readOrNull, stateOf, subject } from '../api-subject.ts';

/*
 * Spec §4.7: the group's accounts, recorded in the group's log (account null: a global
 * administrator manages them, spec §4.8, and an account deleted has no log of its own to show it
 * in); an update by the account's own administrator is in its own log as well. An account is read before an update (one row, its list names and users); a delete, which
 * runs in steps, reads it and counts its contacts (one kept count) before its first step.
 */

/** What an account's entry leaves out: its id, and what it holds rather than is (its lists, users). */
const ACCOUNT_FIXED = ['id', 'lists', 'users'];

function accountEntry(
  operation: 'accounts.create' | 'accounts.update' | 'accounts.delete',
  before: ObjectState | null,
  after: ObjectState | null,
  details?: AuditRecord['details'],
): AuditRecord {
  return {
    accountId: null,
    operation,
    object: { type: 'account', id: (after ?? before)?.id as number | string },
    changes: changesBetween(before, after, { omit: ACCOUNT_FIXED, baseline: ACCOUNT_DEFAULTS }),
    ...(details ? { details } : {}),
  };
}

export const accountSubjects = {
  'accounts.create': subject<'accounts.create'>({
    records: (_db, ctx, { answer }) => [
      accountEntry(
        'accounts.create',
        null,
        stateOf(answer),
        ctx.body.administrator === undefined
          ? undefined
          : { administrator: ctx.body.administrator },
      ),
    ],
  }),
  'accounts.update': subject<'accounts.update', ObjectState | null>({
    // Read as stored (own: null), whoever asks: the route checks the caller (operations.ts OWN_ACCOUNT).
    before: (db, ctx) => readOrNull(() => getAccount(db, ctx.params.id, {}, null)),
    // Made by the account's own administrator (issue 27 item 5), it is in the account's log too:
    // its other administrators read that one, not the group's.
    records: (_db, ctx, { before, answer }) => {
      if (!before) return [];
      const entry = accountEntry('accounts.update', before, stateOf(answer));
      return ctx.principal.accountId === null
        ? [entry]
        : [entry, { ...entry, accountId: Number(before.id) }];
    },
  }),
  'accounts.delete': subject<
    'accounts.delete',
    ObjectState | null,
    { account: ObjectState; contacts: number } | null
  >({
    prelude: async (ctx) => {
      const account = await readOrNull(() => getAccount(ctx.db, ctx.params.id, {}, null));
      return account && { account, contacts: await countContacts(ctx.db, Number(account.id)) };
    },
    before: async (db, ctx, prelude) =>
      prelude && readOrNull(() => getAccount(db, ctx.params.id, {}, null)),
    records: (_db, _ctx, { before, prelude }) =>
      before && prelude
        ? [
            accountEntry('accounts.delete', before, null, {
              contacts: prelude.contacts,
              lists: Array.isArray(prelude.account.lists) ? prelude.account.lists.length : 0,
            }),
          ]
        : [],
  }),
};
