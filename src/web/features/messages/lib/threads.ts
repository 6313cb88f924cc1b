import type { Message } from '../../../../api/schemas/message.ts';

/** A message in a thread view, indented `depth` levels under the message it answers. */
export interface ThreadRow {
  message: Message;
  depth: number;
}

const keyOf = (id: Message['id']) => String(id);

/** Oldest first; the same second is ordered by id, as the server orders (spec §4.5 "by date"). */
function byTime(a: Message, b: Message): number {
  if (a.time !== b.time) return a.time - b.time;
  return typeof a.id === 'number' && typeof b.id === 'number'
    ? a.id - b.id
    : keyOf(a.id).localeCompare(keyOf(b.id));
}

/** A message and the replies to it, for a nested list of a thread. */
export interface ThreadNode {
  message: Message;
  replies: ThreadNode[];
}

/**
 * Messages as reply trees (spec §2.5 `parent`), replies to one message oldest first. A message
 * whose parent is not among them starts a tree. Malformed data (a parent cycle) still shows every
 * message once.
 */
export function threadTree(messages: readonly Message[]): ThreadNode[] {
  const present = new Set(messages.map((m) => keyOf(m.id)));
  const children = new Map<string, Message[]>();
  const tops: Message[] = [];
  for (const message of messages) {
    const parent = message.parent === null ? null : keyOf(message.parent);
    if (parent !== null && parent !== keyOf(message.id) && present.has(parent)) {
      children.set(parent, [...(children.get(parent) ?? []), message]);
    } else {
      tops.push(message);
    }
  }
  const seen = new Set<string>();
  const build = (message: Message): ThreadNode => {
    seen.add(keyOf(message.id));
    const replies = (children.get(keyOf(message.id)) ?? [])
      .filter((child) => !seen.has(keyOf(child.id)))
      .sort(byTime);
    return { message, replies: replies.map(build) };
  };
  const trees = tops.sort(byTime).map(build);
  for (const message of [...messages].sort(byTime)) {
    if (!seen.has(keyOf(message.id))) trees.push(build(message));
  }
  return trees;
}

/** The same trees flattened: each reply right after the message it answers, `depth` levels in. */
export function conversationOrder(messages: readonly Message[]): ThreadRow[] {
  const rows: ThreadRow[] = [];
  const visit = (node: ThreadNode, depth: number) => {
    rows.push({ message: node.message, depth });
    for (const reply of node.replies) visit(reply, depth + 1);
  };
  for (const tree of threadTree(messages)) visit(tree, 0);
  return rows;
}

export interface ThreadGroup {
  threadId: string;
  rows: ThreadRow[];
  /** Messages of the group that reply to another one. */
  replies: number;
  /** The page holds the whole thread, so `replies` counts all of its replies. */
  complete: boolean;
}

/**
 * A page of messages grouped by thread (spec §2.5 `thread_id`), threads in the order they first
 * appear on the page. A thread is complete on the page when every message's parent is there too
 * (so its first message is) and the page is the list's newest end: a reply is always newer than
 * what it answers, so then none can be on another page. Page 1 is the newest end newest first;
 * the last page oldest first.
 */
export function threadsOfPage(messages: readonly Message[], atNewestEnd: boolean): ThreadGroup[] {
  const groups = new Map<string, Message[]>();
  for (const message of messages) {
    const thread = keyOf(message.thread_id);
    groups.set(thread, [...(groups.get(thread) ?? []), message]);
  }
  return [...groups].map(([threadId, members]) => {
    const ids = new Set(members.map((m) => keyOf(m.id)));
    const rooted = members.every((m) => m.parent === null || ids.has(keyOf(m.parent)));
    return {
      threadId,
      rows: conversationOrder(members),
      replies: members.filter((m) => m.parent !== null).length,
      complete: rooted && atNewestEnd,
    };
  });
}
