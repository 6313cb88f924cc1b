import type { MemberRequest, RequestPage } from '../../../../api/schemas/request.ts';
import type { ExtensionAnswer } from '../../../lib/extensions.ts';

/** A request's key for the table, the selection and the triage cursor. */
export const requestKey = (request: MemberRequest) => String(request.id);

/**
 * A page of the requests queue without the requests that just left it (approved, rejected or
 * discarded, before the server answers, or waiting for their undo window): the rows, the total
 * and each list's count of their kind all drop them, so the counts stay true to what is shown.
 */
export function withoutRequests(
  answer: ExtensionAnswer<RequestPage> | undefined,
  keys: readonly string[],
): ExtensionAnswer<RequestPage> | undefined {
  if (!answer?.supported) return answer;
  const gone = new Set(keys);
  const page = answer.value;
  const leaving = page.data.filter((request) => gone.has(requestKey(request)));
  if (leaving.length === 0) return answer;
  const lists = page.lists
    .map((entry) => {
      const of = (kind: MemberRequest['kind']) =>
        leaving.filter((request) => request.list === entry.list && request.kind === kind).length;
      return {
        ...entry,
        join: Math.max(0, entry.join - of('join')),
        leave: Math.max(0, entry.leave - of('leave')),
      };
    })
    .filter((entry) => entry.join + entry.leave > 0);
  return {
    supported: true,
    value: {
      ...page,
      count: Math.max(0, page.count - leaving.length),
      data: page.data.filter((request) => !gone.has(requestKey(request))),
      lists,
    },
  };
}
