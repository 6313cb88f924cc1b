import type { CSSProperties, Ref } from 'react';
import { Link } from 'react-router';
import type { Message } from '../../../../api/schemas/message.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { SelectBox } from '../../../components/select-box.tsx';
// Its links carry lib/use-triage-cursor.ts's TRIAGE_LINK (`data-triage-link`).
import { sentAt, subjectOf } from '../lib/format.ts';
import type { ThreadGroup } from '../lib/threads.ts';
import { messageKey } from '../lib/message-key.ts';

/** Indentation stops here, so a deep thread still fits the column. */
const MAX_INDENT = 6;

interface MessagesTableProps {
  groups: readonly ThreadGroup[];
  selected: ReadonlySet<string>;
  onToggle: (message: Message, selected: boolean) => void;
  onToggleAll: (selected: boolean) => void;
  /** The row keyboard triage is on (j, k). */
  current: string | null;
  onCurrent: (key: string) => void;
  /** The list's URL search, carried by each message's link (its next and previous follow it). */
  search: string;
  ref?: Ref<HTMLTableElement>;
}

/**
 * One page of messages in a real `<table>`, a `<tbody>` per thread (spec §2.5 `thread_id`), each
 * reply indented under the message it answers. The thread's first row says how many replies it
 * has: all of them, or those on this page when the page cannot hold the whole thread.
 */
export function MessagesTable({
  groups,
  selected,
  onToggle,
  onToggleAll,
  current,
  onCurrent,
  search,
  ref,
}: MessagesTableProps) {
  const messages = groups.flatMap((group) => group.rows.map((row) => row.message));
  const allSelected = messages.length > 0 && messages.every((m) => selected.has(messageKey(m)));
  return (
    <table className="messages-table" ref={ref}>
      <thead>
        <tr>
          <th scope="col">
            <SelectBox
              label="Select every message on this page"
              checked={allSelected}
              onChange={onToggleAll}
            />
            Subject
          </th>
          <th scope="col">From</th>
          <th scope="col">List</th>
          <th scope="col">Sent</th>
          <th scope="col">Replies</th>
        </tr>
      </thead>
      {groups.map((group) => (
        <tbody key={group.threadId} className="thread-group">
          {group.rows.map(({ message, depth }, index) => {
            const key = messageKey(message);
            const subject = subjectOf(message);
            return (
              <tr
                key={key}
                className={key === current ? 'current' : undefined}
                aria-current={key === current ? 'true' : undefined}
                onFocus={() => onCurrent(key)}
              >
                {/* The selection box shares the subject's cell, so the row is found by its subject. */}
                <td
                  className="subject-cell"
                  style={{ '--depth': Math.min(depth, MAX_INDENT) } as CSSProperties}
                >
                  <SelectBox
                    label={`Select “${subject}”`}
                    checked={selected.has(key)}
                    onChange={(on) => onToggle(message, on)}
                  />
                  {message.parent !== null && (
                    <span className="reply-mark">
                      <span aria-hidden="true">↳ </span>
                      <span className="visually-hidden">Reply: </span>
                    </span>
                  )}
                  <Link to={{ pathname: encodeURIComponent(key), search }} data-triage-link={key}>
                    {subject}
                  </Link>
                </td>
                <td>
                  {message.from_phrase.trim() && (
                    <span className="cell-line">{message.from_phrase}</span>
                  )}
                  <span className="cell-line address">{message.from_address}</span>
                </td>
                <td>{message.list}</td>
                <td>
                  <RelativeTime time={sentAt(message)} />
                </td>
                {/* Empty below the thread's first row: a phone's card then shows no "Replies". */}
                <td>{index === 0 ? replyCount(group) : null}</td>
              </tr>
            );
          })}
        </tbody>
      ))}
    </table>
  );
}

function replyCount(group: ThreadGroup): string {
  if (group.complete) return String(group.replies);
  return `${group.replies} on this page`;
}
