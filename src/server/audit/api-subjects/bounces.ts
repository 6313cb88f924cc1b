import { findEmail } from '../../services/emails.service.ts';
import { requireAccount } from '../../routes/route-support.ts';
import type { EmailWithContactRow } from '../../repositories/emails.repository.ts';
import { readOrNull, stateOf, subject } from '../api-subject.ts';

/*
 * An address's bounce state cleared (extension `bounces.clear`, issue 26 item 1), recorded on the
 * address: that what bounces recorded was forgotten, and the pause they made lifted if it was.
 */
export const bounceSubjects = {
  'bounces.clear': subject<'bounces.clear', EmailWithContactRow | null>({
    before: (db, ctx) =>
      readOrNull(() => findEmail(db, requireAccount(ctx.account), ctx.params.id)),
    records: (_db, ctx, { before, answer }) => {
      if (!before) return [];
      const outcome = stateOf(answer) as { cleared: boolean; paused: boolean };
      const wasPaused = before.paused === 1;
      return [
        {
          accountId: requireAccount(ctx.account).id,
          operation: 'bounces.clear',
          object: { type: 'email', id: before.id },
          changes: [
            ...(outcome.cleared ? [{ field: 'bounces', old: 'recorded', new: null }] : []),
            ...(wasPaused !== outcome.paused
              ? [{ field: 'paused', old: wasPaused, new: outcome.paused }]
              : []),
          ],
        },
      ];
    },
  }),
};
