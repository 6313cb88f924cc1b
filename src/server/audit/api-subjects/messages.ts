import { requireAccount } from '../../routes/route-support.ts';
import { getMessage } from '../../services/messages.service.ts';
import { changesBetween, type ObjectState } from '../changes.ts';
import { readOrNull, subject } from '../api-subject.ts';

/*
 * Spec §4.5: a message sent to a list, and a message deleted, recorded by what names them (subject,
 * sender, Message-ID, time), never their content: an archive of the archive would double it.
 */

function summaryOf(message: ObjectState): ObjectState {
  const { subject: title, from_phrase, from_address, time, message_id, parent } = message;
  return { subject: title, from_phrase, from_address, time, message_id, parent };
}

export const messageSubjects = {
  'messages.send': subject<'messages.send'>({
    // Spec §4.5 answers only `success`: the handler notes the message it archived (ctx.audit).
    records: (_db, ctx) => [
      {
        accountId: requireAccount(ctx.account).id,
        operation: 'messages.send',
        object: { type: 'message', id: ctx.audit.objectId ?? null, list: ctx.body.list },
        changes: changesBetween(null, {
          subject: ctx.body.subject ?? '',
          from_phrase: ctx.body.from_phrase ?? '',
          from_address: ctx.body.from_address ?? '',
          parent: ctx.body.parent ?? null,
        }),
      },
    ],
  }),
  'messages.delete': subject<'messages.delete', ObjectState | null>({
    before: (db, ctx) =>
      readOrNull(() =>
        getMessage(db, requireAccount(ctx.account).id, ctx.principal, ctx.params.id),
      ),
    records: (_db, ctx, { before }) =>
      before
        ? [
            {
              accountId: requireAccount(ctx.account).id,
              operation: 'messages.delete',
              object: {
                type: 'message',
                id: before.id as number | string,
                list: typeof before.list === 'string' ? before.list : null,
              },
              changes: changesBetween(summaryOf(before), null),
            },
          ]
        : [],
  }),
};
