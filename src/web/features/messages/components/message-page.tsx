import '../messages.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../../api/errors.ts';
import type { Message } from '../../../../api/schemas/message.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { PageHeading } from '../../../components/page-heading.tsx';
import { ParentLink } from '../../../components/parent-link.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { Tabs } from '../../../components/tabs.tsx';
import { sectionPath } from '../../../lib/account-scope.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { messageQueries, senderContactQuery } from '../api/message-queries.ts';
import { sentAt, subjectOf } from '../lib/format.ts';
import { DeleteMessageDialog } from './delete-message-dialog.tsx';
import { MessageHtml } from './message-html.tsx';
import { MessageThread } from './message-thread.tsx';

/** One message (spec §2.5): its headers, its content as plain text and HTML, its thread. */
export function MessagePage({ accountId, messageId }: { accountId: AccountId; messageId: string }) {
  const message = useQuery(messageQueries.detail(accountId, messageId));
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  if (message.isPending)
    return (
      <>
        <PageHeading title="Message" />
        <TableSkeleton label="Loading the message…" />
      </>
    );
  if (message.isError)
    return (
      <>
        <ParentLink label="All messages" />
        <PageHeading title="Message" />
        <ErrorMessage error={message.error} onRetry={() => void message.refetch()} />
      </>
    );

  const data = message.data;
  return (
    <>
      <ParentLink label="All messages" />
      <PageHeading title={subjectOf(data)} />
      <div className="message-page">
        <MessageHeaders accountId={accountId} message={data} />
        <section aria-labelledby="message-content-heading" className="stack">
          <h2 id="message-content-heading">Content</h2>
          <Tabs
            label="Content"
            tabs={[
              ...(data.content_html.trim()
                ? [
                    {
                      id: 'html',
                      label: 'HTML',
                      content: <MessageHtml accountId={accountId} message={data} />,
                    },
                  ]
                : []),
              {
                id: 'plain',
                label: 'Plain text',
                content: <pre className="message-plain">{data.content_plain || '(empty)'}</pre>,
              },
            ]}
          />
        </section>
        <MessageThread accountId={accountId} message={data} />
        <section className="stack danger-zone" aria-label="Delete the message">
          <button type="button" className="button danger" onClick={() => setDeleting(true)}>
            Delete the message
          </button>
        </section>
      </div>
      <DeleteMessageDialog
        accountId={accountId}
        message={deleting ? data : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('..', { relative: 'path' })}
      />
    </>
  );
}

/** The message's headers as a definition list, the sender linked to their contact when they are one. */
function MessageHeaders({ accountId, message }: { accountId: AccountId; message: Message }) {
  const sent = sentAt(message);
  return (
    <section aria-labelledby="message-headers-heading">
      <h2 id="message-headers-heading" className="visually-hidden">
        Headers
      </h2>
      <dl className="message-headers">
        <dt>From</dt>
        <dd>
          {message.from_phrase.trim() && (
            <span className="sender-phrase">{message.from_phrase} </span>
          )}
          <span className="address">&lt;{message.from_address}&gt;</span>
          <SenderContact accountId={accountId} address={message.from_address} />
        </dd>
        <dt>List</dt>
        <dd>{message.list}</dd>
        <dt>Sent</dt>
        <dd>
          <RelativeTime time={sent} />
        </dd>
        {message.parent !== null && (
          <>
            <dt>In reply to</dt>
            <dd>
              <Link to={`../${encodeURIComponent(String(message.parent))}`} relative="path">
                The message it answers
              </Link>
            </dd>
          </>
        )}
        <dt>Message-ID</dt>
        <dd className="address">{message.message_id}</dd>
      </dl>
    </section>
  );
}

/**
 * A link to the sender's contact (spec §4.2: the address names its email object, which names the
 * contact). Nothing when the sender is no contact, or the key may not read contacts.
 */
function SenderContact({ accountId, address }: { accountId: AccountId; address: string }) {
  const contact = useQuery({ ...senderContactQuery(accountId, address), enabled: address !== '' });
  if (contact.isError) {
    const forbidden = contact.error instanceof ApiError && contact.error.status === 403;
    return forbidden ? null : (
      <span className="hint"> (whether the sender is a contact is unknown)</span>
    );
  }
  if (!contact.data) return null;
  return (
    <>
      {' · '}
      <Link
        to={`${sectionPath(accountId, 'contacts')}/${encodeURIComponent(String(contact.data.contact))}`}
      >
        The sender&rsquo;s contact
      </Link>
    </>
  );
}
