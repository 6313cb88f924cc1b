import { useQuery } from '@tanstack/react-query';
import type { MessageQuery } from '../../../../api/schemas/message.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { messageQueries } from '../api/message-queries.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A first view of the list messages: the latest page, subject first. */
export function MessagesTable({ accountId, query }: { accountId: AccountId; query: MessageQuery }) {
  const messages = useQuery(messageQueries.list(accountId, query));
  if (messages.isPending) return <TableSkeleton label="Loading messages…" />;
  if (messages.isError)
    return <ErrorMessage error={messages.error} onRetry={() => void messages.refetch()} />;
  const { count, data } = messages.data;
  if (data.length === 0) return <p>No messages yet.</p>;
  return (
    <>
      <p className="summary">
        {count === data.length
          ? `${count} messages.`
          : `${count} messages; the latest ${data.length} are shown.`}
      </p>
      <TableScroll label="Messages">
        <table>
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">List</th>
              <th scope="col">From</th>
              <th scope="col">Sent</th>
            </tr>
          </thead>
          <tbody>
            {data.map((message) => {
              // Spec §2.5: Unix time in seconds.
              const sent = new Date(message.time * 1000);
              return (
                <tr key={String(message.id)}>
                  <td>{message.subject || '(no subject)'}</td>
                  <td>{message.list}</td>
                  <td>{message.from_phrase || message.from_address}</td>
                  <td>
                    <time dateTime={sent.toISOString()}>{dateTime.format(sent)}</time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
