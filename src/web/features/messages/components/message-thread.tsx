import { Link } from 'react-router';
import type { Message } from '../../../../api/schemas/message.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useMessageThread } from '../api/message-thread.ts';
import { THREAD_SEARCH } from '../lib/find-thread.ts';
import { senderOf, sentAt, subjectOf } from '../lib/format.ts';
import { threadTree, type ThreadNode } from '../lib/threads.ts';

/** The thread a message belongs to (spec §2.5): its parent, its replies, the rest, as nested lists. */
export function MessageThread({ accountId, message }: { accountId: AccountId; message: Message }) {
  const thread = useMessageThread(accountId, message.id);
  const replies =
    thread.data?.messages.filter((m) => String(m.parent) === String(message.id)) ?? [];

  return (
    <section aria-labelledby="message-thread-heading" className="stack">
      <h2 id="message-thread-heading">Thread</h2>
      {thread.isPending ? (
        <p role="status">Finding the thread…</p>
      ) : thread.isError ? (
        <ErrorMessage error={thread.error} onRetry={() => void thread.refetch()} />
      ) : (
        <>
          <p className="summary" role="status">
            {thread.data.messages.length === 1
              ? 'This message is the whole thread: no replies.'
              : `${thread.data.messages.length} messages in the thread; ${replies.length === 1 ? '1 reply' : `${replies.length} replies`} to this one.`}
            {!thread.data.complete &&
              ` The thread may be incomplete: it was looked for among the newest ${THREAD_SEARCH.pageSize * THREAD_SEARCH.maxPages} messages.`}
          </p>
          <ThreadList nodes={threadTree(thread.data.messages)} current={message} />
        </>
      )}
    </section>
  );
}

function ThreadList({ nodes, current }: { nodes: ThreadNode[]; current: Message }) {
  return (
    <ul className="thread">
      {nodes.map(({ message, replies }) => {
        const isCurrent = String(message.id) === String(current.id);
        return (
          <li key={String(message.id)}>
            <div className="thread-item">
              {isCurrent ? (
                <strong aria-current="page">{subjectOf(message)} (this message)</strong>
              ) : (
                <Link to={`../${encodeURIComponent(String(message.id))}`} relative="path">
                  {subjectOf(message)}
                </Link>
              )}
              <span className="thread-meta">
                {senderOf(message)}, <RelativeTime time={sentAt(message)} />
              </span>
            </div>
            {replies.length > 0 && <ThreadList nodes={replies} current={current} />}
          </li>
        );
      })}
    </ul>
  );
}
