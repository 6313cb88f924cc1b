import type { Id } from '../../../../api/primitives.ts';
import type { HeldPage } from '../../../../api/schemas/held.ts';
import type { ExtensionAnswer } from '../../../lib/extensions.ts';

/**
 * A page of the held queue without the messages that just left it (approved, rejected or
 * discarded, before the server answers): the rows, the total and the per-list counts all drop
 * them, so the counts stay true to what is shown.
 */
export function withoutHeld(
  answer: ExtensionAnswer<HeldPage> | undefined,
  ids: readonly Id[],
): ExtensionAnswer<HeldPage> | undefined {
  if (!answer?.supported) return answer;
  const gone = new Set(ids.map(String));
  const page = answer.value;
  const leaving = page.data.filter((message) => gone.has(String(message.id)));
  if (leaving.length === 0) return answer;
  const perList = new Map<string, number>();
  for (const message of leaving) perList.set(message.list, (perList.get(message.list) ?? 0) + 1);
  return {
    supported: true,
    value: {
      ...page,
      count: Math.max(0, page.count - leaving.length),
      data: page.data.filter((message) => !gone.has(String(message.id))),
      lists: page.lists
        .map((entry) => ({
          ...entry,
          count: Math.max(0, entry.count - (perList.get(entry.list) ?? 0)),
        }))
        .filter((entry) => entry.count > 0),
    },
  };
}
